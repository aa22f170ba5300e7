/* SPDX-License-Identifier: GPL-2.0 */
/* Actors (actor.c): one pthread per model thread, made through the model's hooks. */
#ifndef CGT_RUN_ACTOR_H
#define CGT_RUN_ACTOR_H

#include "../model/model.h"

struct cgt_run;
int cgt_actors_init(struct cgt_run *run);
extern const struct cgt_model_hooks cgt_actor_hooks;

#endif
