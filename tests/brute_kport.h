/* brute_kport.h - exhaustive search for k-port multi-message broadcast. */
#ifndef OC_BRUTE_KPORT_H
#define OC_BRUTE_KPORT_H

#include <stdint.h>

/* The least number of rounds in which a source can give m messages to all
 * of n processors in the k-port model (n <= 8, k <= 4, m <= 5), or -1 when
 * it exceeds tmax; -2 for arguments out of range or no memory. */
int brute_kport_opt(int n, int k, int m, int tmax);

#endif
