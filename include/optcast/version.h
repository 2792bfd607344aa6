/* optcast/version.h - the release, in one place: the command's --version,
 * oc_version(), the shared library's name (liboptcast.so.MAJOR) and
 * optcast.pc all read it from here (the Makefile extracts the numbers).
 * Part of the public API; include "optcast.h" for all of it.
 *
 * Before 1.0 a MINOR release may change the API; the shared library's
 * soname carries MAJOR.MINOR until then. */
#ifndef OPTCAST_VERSION_H
#define OPTCAST_VERSION_H

#define OC_VERSION_MAJOR 0
#define OC_VERSION_MINOR 9
#define OC_VERSION_PATCH 0
#define OC_VERSION_STRING "0.9.0"
/* one integer that orders releases: 10000 MAJOR + 100 MINOR + PATCH */
#define OC_VERSION_NUMBER (OC_VERSION_MAJOR * 10000 + OC_VERSION_MINOR * 100 + OC_VERSION_PATCH)

#ifdef __cplusplus
extern "C" {
#endif

/* The library's own version string ("0.9.0"): the release of the library
 * that is linked, which a program built against another release's header
 * can compare with OC_VERSION_STRING. */
const char *oc_version(void);

#ifdef __cplusplus
}
#endif

#endif /* OPTCAST_VERSION_H */
