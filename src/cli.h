/* cli.h - the optcast command's own pieces (not part of the library). */
#ifndef OC_CLI_H
#define OC_CLI_H

#include <stdio.h>

#include "optcast.h"

/* reverse = 0: a broadcast tree (children = the processors it sends to);
 * 1: a reduction tree (children = the processors that send to it) */
int cli_render_tree(FILE *f, const oc_params *p, int64_t root,
                    const oc_sched *s, int reverse);
/* root >= 0: a broadcast from root (others hold nothing until it arrives);
 * root < 0: every processor holds data from time 0.  Additions in s->op
 * are drawn too. */
int cli_render_activity(FILE *f, const oc_params *p, int64_t root,
                        const oc_sched *s, int64_t completion);

#endif
