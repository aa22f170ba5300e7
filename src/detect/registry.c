// SPDX-License-Identifier: GPL-2.0
/* The one place detectors are registered: a detector is a file and a line in CGT_DETECTORS. */
#include "detect.h"

#define X(id, sym, name, desc) extern const struct cgt_detector_ops sym##_detector;
CGT_DETECTORS(X)
#undef X

const struct cgt_detector_ops *const cgt_detectors[CGT_NR_DETECTORS] = {
#define X(id, sym, name, desc) [CGT_DET_##id] = &sym##_detector,
	CGT_DETECTORS(X)
#undef X
};
