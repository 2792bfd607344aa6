/* oc_version.c - the library's release (include/optcast/version.h). */
#include "optcast/version.h"

const char *oc_version(void) { return OC_VERSION_STRING; }
