/* test.h - a small test registry: every test is a function run in its own
 * process under a time limit (tests/test_main.c). */
#ifndef OC_TEST_H
#define OC_TEST_H

#include <stdint.h>
#include <stdio.h>

#include "optcast.h"

/* X-macro list of every test: X(name) defines void test_name(void). */
#define TEST_LIST(X)                                                           \
  X(num_parse_int)                                                             \
  X(num_parse_rational)                                                        \
  X(num_format_time)                                                           \
  X(params_reject)                                                             \
  X(reach_karp_thm22)                                                          \
  X(reach_closed_matches_recurrence)                                           \
  X(reach_matches_enumeration)                                                 \
  X(reach_thm4_property)                                                       \
  X(reach_edges_no_overflow)                                                   \
  X(reach_barnoy_fig1_time)                                                    \
  X(bcast_karp_fig1)                                                           \
  X(bcast_shouchen_fig1)                                                       \
  X(bcast_karp_p7_smallest_labels)                                             \
  X(bcast_barnoy_fig1)                                                         \
  X(bcast_random_property)                                                     \
  X(bcast_views_agree_random)                                                  \
  X(bcast_closed_form_views_agree)                                             \
  X(bcast_rank_huge)                                                           \
  X(bcast_rank_chain)                                                          \
  X(verify_rules_handmade)                                                     \
  X(verify_mutants_rejected)                                                   \
  X(verify_exhaustive_small)                                                   \
  X(reduce_shouchen_fig2)                                                      \
  X(reduce_karp_fig6)                                                          \
  X(reduce_exhaustive_small)                                                   \
  X(reduce_sum_random)                                                         \
  X(reduce_all_roots)                                                          \
  X(reduce_mutants_rejected)                                                   \
  X(reduce_infer_matches_plan)                                                 \
  X(reduce_views_agree)                                                        \
  X(reduce_sum_large_params)                                                   \
  X(allreduce_ordered)                                                         \
  X(allreduce_postal_optimal)                                                  \
  X(allreduce_random)                                                          \
  X(allreduce_best_random)                                                     \
  X(allreduce_exact_small)                                                     \
  X(alltoall_random)                                                           \
  X(alltoall_rank_views)                                                       \
  X(alltoall_compact)                                                          \
  X(alltoall_exact)                                                            \
  X(allgather_mesh_views)                                                      \
  X(kbcast_random)                                                             \
  X(kbcast_bounds)                                                             \
  X(kbcast_theorem7)                                                           \
  X(kbcast_pack_long_messages)                                                 \
  X(kbcast_cyclic)                                                             \
  X(kbcast_best_cyclic)                                                        \
  X(kbcast_greedy)                                                             \
  X(kbcast_exact)                                                              \
  X(mbcast_exact_witness)                                                      \
  X(mbcast_exact_bounds)                                                       \
  X(mreduce_exact_witness)                                                     \
  X(mreduce_exact_bounds)                                                      \
  X(kbcast_karp_sweep)                                                         \
  X(kbcast_buffered)                                                           \
  X(kbcast_karp_fig4)                                                          \
  X(kbcast_circulant)                                                          \
  X(kbcast_circulant_rank)                                                     \
  X(kbcast_times_only)                                                         \
  X(kbcast_fractional)                                                         \
  X(cbcast_karp_fig2)                                                          \
  X(cbcast_exists)                                                             \
  X(cbcast_l2)                                                                 \
  X(cbcast_buffered)                                                           \
  X(cbcast_fig4_form)                                                          \
  X(cbcast_grid)                                                               \
  X(cbcast_step)                                                               \
  X(cbcast_mutants)                                                            \
  X(cbcast_large)                                                              \
  X(cbcast_tl)                                                                 \
  X(cbcast_nested)                                                             \
  X(cli_cbcast)                                                                \
  X(kport_one_port)                                                           \
  X(kport_bounds_exhaustive)                                                   \
  X(kport_bounds_values)                                                       \
  X(kport_rotation_cube)                                                       \
  X(kport_rotation_special)                                                    \
  X(kport_random)                                                              \
  X(kport_mutants)                                                             \
  X(kport_verify_rules)                                                        \
  X(kport_k1_postal)                                                           \
  X(kport_ktree_all)                                                           \
  X(kport_direct)                                                              \
  X(kport_direct_mutants)                                                      \
  X(kport_tail)                                                                \
  X(kport_tail_mutants)                                                        \
  X(kport_tail_replace)                                                        \
  X(mutants_campaign)                                                          \
  X(mutants_combining)                                                         \
  X(cli_plan_json_fig1)                                                        \
  X(cli_postal_rational)                                                       \
  X(cli_csv_roundtrip)                                                         \
  X(cli_verify_exit_codes)                                                     \
  X(cli_bad_input)                                                             \
  X(cli_bound_edges)                                                           \
  X(cli_rank_multi)                                                            \
  X(cli_text_output)                                                           \
  X(cli_combining)                                                             \
  X(cli_kbcast)                                                                \
  X(cli_allreduce_roundtrip)                                                   \
  X(cli_buffered)                                                              \
  X(cli_edges)                                                                 \
  X(cli_review_regressions)                                                    \
  X(cli_stdout_full)                                                           \
  X(cli_kport)                                                                 \
  X(draw_xml_checker)                                                          \
  X(draw_wellformed)                                                           \
  X(draw_stdout_and_replace)                                                   \
  X(draw_errors)                                                               \
  X(draw_golden)                                                               \
  X(vreduce_hand)                                                              \
  X(vreduce_algorithms)                                                        \
  X(vreduce_mutants)                                                           \
  X(libred_allreduce)                                                          \
  X(libred_values)                                                             \
  X(libred_select)                                                             \
  X(libred_runs)                                                               \
  X(allreduce_vector)                                                          \
  X(draw_karp_tables)                                                          \
  X(draw_xmllint)                                                              \
  X(report_pages)                                                              \
  X(report_errors)                                                             \
  X(draw_review_regressions)                                                   \
  X(compare_svg_wellformed)                                                    \
  X(libcoll_random)                                                            \
  X(mbcast_random)                                                             \
  X(mbcast_never_slower)                                                       \
  X(mbcast_mutants)                                                            \
  X(mbcast_refusals)                                                           \
  X(mbcast_bound_formula)                                                      \
  X(mbcast_rank_views)                                                         \
  X(mbcast_bounded)                                                            \
  X(mbcast_rarest)                                                             \
  X(mbcast_circulant)                                                          \
  X(mreduce_random)                                                            \
  X(mreduce_never_slower)                                                      \
  X(mreduce_mutants)                                                           \
  X(mreduce_hist_mutants)                                                      \
  X(vreduce_shift)                                                             \
  X(rprog_time_only)                                                           \
  X(mreduce_prog_views)                                                        \
  X(mreduce_bound_formula)                                                     \
  X(mreduce_csv)                                                               \
  X(mreduce_bounded)                                                           \
  X(mreduce_select)                                                            \
  X(mreduce_rank_views)                                                        \
  X(mreduce_gossip)                                                            \
  X(cli_vector_reduce)                                                         \
  X(libcoll_formulas)                                                          \
  X(libcoll_hand)                                                              \
  X(libcoll_select)                                                            \
  X(libcoll_limits)                                                            \
  X(cli_compare)                                                               \
  X(cli_compare_allreduce)                                                     \
  X(cli_compare_svg)                                                           \
  X(rrp_comet)                                                                 \
  X(rrp_paper_cases)                                                           \
  X(rrp_theorem21)                                                             \
  X(rrp_random)                                                                \
  X(rrp_best)                                                                  \
  X(rrp_mutants)                                                               \
  X(rrp_noncommutative)                                                        \
  X(rrp_verify_rules)                                                           \
  X(rrp_sort)                                                                  \
  X(rrp_exhaustive_small)                                                      \
  X(rrp_review_regressions)                                                    \
  X(cli_rrp)                                                                   \
  X(rt_types_ops)                                                              \
  X(rt_params_file)                                                            \
  X(rt_params_units)                                                           \
  X(rt_threads_transport)                                                      \
  X(rt_bcast)                                                                  \
  X(rt_reduce)                                                                 \
  X(rt_allreduce)                                                              \
  X(rt_allgather)                                                              \
  X(rt_scan)                                                                   \
  X(rt_sum)                                                                    \
  X(rt_random)                                                                 \
  X(rt_messages)                                                               \
  X(rt_segments)                                                               \
  X(rt_pacing)                                                                 \
  X(rt_recv_ahead)                                                             \
  X(oview_small)                                                               \
  X(oview_random)                                                              \
  X(oview_mutants)                                                             \
  X(oview_refusals)                                                            \
  X(oview_sum)                                                                 \
  X(oview_held_refusals)                                                       \
  X(rtview_bcast)                                                              \
  X(rtview_reduce)                                                             \
  X(rtview_allreduce)                                                          \
  X(rtview_allgather)                                                          \
  X(rtview_ordered)                                                            \
  X(rtview_sum)                                                                \
  X(rtview_auto)                                                               \
  X(rtview_choice)                                                             \
  X(rtview_mesh_choice)                                                        \
  X(rt_algorithms)                                                             \
  X(rt_bad_calls)                                                              \
  X(cli_run)                                                                   \
  X(sched_columns)                                                             \
  X(problem_agrees)                                                            \
  X(problem_refusals)                                                          \
  X(problem_rank_views)                                                        \
  X(docs_layout)                                                               \
  X(cli_version)                                                               \
  X(cli_man_completion)                                                        \
  X(cli_completion_values)                                                     \
  X(cli_did_you_mean)                                                           \
  X(cli_units)                                                                 \
  X(cli_honest_output)                                                         \
  X(docs_examples)                                                             \
  X(cli_progress_memory)                                                       \
  X(cli_pictures)

#define TEST_DECL_(name) void test_##name(void);
TEST_LIST(TEST_DECL_)
#undef TEST_DECL_

void test_fail(const char *file, int line, const char *what);
void test_failf(const char *file, int line, const char *fmt, ...);

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) test_fail(__FILE__, __LINE__, #cond);                         \
  } while (0)
#define CHECK_EQ(a, b)                                                         \
  do {                                                                         \
    long long a_ = (long long)(a), b_ = (long long)(b);                        \
    if (a_ != b_)                                                              \
      test_failf(__FILE__, __LINE__, "%s == %s: %lld != %lld", #a, #b, a_, b_); \
  } while (0)
#define CHECK_OK(e) CHECK_EQ((e), OC_OK)

/* deterministic pseudo-random numbers (xorshift64*) */
uint64_t test_rand(void);
int64_t test_range(int64_t lo, int64_t hi); /* inclusive */
int test_sweep(void); /* 1 when OPTCAST_SWEEP is set: long runs */
/* random valid LogP parameters, P <= maxP, o > g included (test_libcoll.c) */
void test_rand_logp(oc_params *p, int64_t maxP);
/* 1 when OPTCAST_VALGRIND is set (tests/run.sh's valgrind pass): the
 * runtime's sweeps run a smaller grid there (valgrind serialises threads) */
int test_valgrind(void);

/* brute.c: independent reference implementations (no library code) */
/* labels of the P smallest nodes of the universal tree (h, G), sorted */
int64_t *brute_smallest_labels(int64_t P, int64_t h, int64_t G);
/* number of universal-tree nodes with label <= t (explicit enumeration) */
int64_t brute_count(int64_t h, int64_t G, int64_t t, int64_t cap);

/* running the command */
typedef struct run_result {
  int code;     /* exit code, or 128+signal */
  char out[1 << 16];
  char err[4096];
} run_result;
/* Runs the optcast binary with argv (NULL-terminated), feeding `in`. */
void run_optcast(run_result *r, const char *in, const char *const *argv);

#endif
