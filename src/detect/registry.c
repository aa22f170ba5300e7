// SPDX-License-Identifier: GPL-2.0
/* The one place detectors are registered: a detector is a file and a line in CGT_DETECTORS. */
#include <stdio.h>

#include "detect.h"

#define X(id, sym, name, desc) extern const struct cgt_detector_ops sym##_detector;
CGT_DETECTORS(X)
#undef X

const struct cgt_detector_ops *const cgt_detectors[CGT_NR_DETECTORS] = {
#define X(id, sym, name, desc) [CGT_DET_##id] = &sym##_detector,
	CGT_DETECTORS(X)
#undef X
};

void cgt_failure_kind(int detector, const char *summary, const char *evidence, char *buf,
		      size_t len)
{
	const struct cgt_detector_ops *ops =
		detector >= 0 && detector < CGT_NR_DETECTORS ? cgt_detectors[detector] : NULL;
	size_t o = (size_t)snprintf(buf, len, "%s: ", ops ? cgt_detector_names[detector] : "?");

	if (o >= len)
		return;
	summary = summary ? summary : "";
	if (ops && ops->kind)
		ops->kind(summary, evidence, buf + o, len - o);
	else
		cgt_kind_numbers_out(summary, buf + o, len - o);
}
