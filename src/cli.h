/* cli.h - the optcast command's own pieces (not part of the library). */
#ifndef OC_CLI_H
#define OC_CLI_H

#include <stdio.h>

#include "optcast.h"

int cli_render_tree(FILE *f, const oc_params *p, int64_t root,
                    const oc_sched *s);
int cli_render_activity(FILE *f, const oc_params *p, int64_t root,
                        const oc_sched *s, int64_t completion);

#endif
