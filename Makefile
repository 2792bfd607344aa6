# optcast - build, test, demo, benchmarks.
#   make          library and command (build/)
#   make demo     plan and verify Karp et al.'s Fig. 1 broadcast, print the tree
#   make check    every test, optimised and under ASan+UBSan
#   make bench    benchmark programs (figures in docs/BENCHMARKS.md)
#   make sweep    the long property sweep and the ring's N <= 4096 sweep (not part of check)
#   make golden   regenerate tests/golden/*.svg (the drawings of the paper figures)
#   make svg-e2e  render a drawing in headless Chromium, check the PNG (not in check)
#   make install  PREFIX=/usr/local DESTDIR=: the command, the libraries, headers,
#                 optcast.pc, optcast(1), completions (install.mk); make uninstall
CC      ?= cc
CSTD     = -std=c11 -D_POSIX_C_SOURCE=200809L
WARN     = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS  ?= -O2 -g
SANFLAGS = -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

# Layers (docs: README.md, "Layout"): core -> plan, libmodels -> verify -> rt; the
# command line (src/cli/) sees the public headers only (-Iinclude).
CORE_SRC   = $(wildcard src/core/*.c)
PLAN_SRC   = $(wildcard src/plan/*.c)
LIBM_SRC   = $(wildcard src/libmodels/*.c)
VERIFY_SRC = $(wildcard src/verify/*.c)
RT_SRC     = src/rt/rt_types.c src/rt/rt_params.c src/rt/rt_threads.c src/rt/rt_comm.c \
             src/rt/rt_xport.c src/rt/rt_model.c src/rt/rt_choose.c \
             src/rt/rt_exec.c src/rt/rt_view.c src/rt/rt_sum.c \
             src/rt/rt_coll.c src/rt/rt_measure.c
LIB_SRC = $(CORE_SRC) $(PLAN_SRC) $(LIBM_SRC) $(VERIFY_SRC) $(RT_SRC)
CLI_SRC = $(wildcard src/cli/*.c)
TEST_SRC = tests/test_main.c tests/test_reach.c tests/test_bcast.c \
           tests/test_verify.c tests/test_reduce.c tests/test_collect.c tests/test_kbcast.c tests/test_cbcast.c tests/test_mutants.c tests/test_cli.c tests/brute.c \
           tests/test_kport.c tests/brute_kport.c tests/test_draw.c tests/test_libcoll.c tests/test_mbcast.c tests/test_mreduce.c tests/test_rrp.c tests/brute_rrp.c tests/test_rt.c tests/test_oview.c tests/test_rtview.c tests/test_vec.c tests/test_problem.c tests/test_docs.c \
           tests/test_mbexact.c tests/brute_mbcast.c tests/test_clihelp.c tests/test_docexamples.c tests/test_mrexact.c tests/brute_mreduce.c
HDRS = $(wildcard include/*.h include/optcast/*.h src/*/*.h) tests/test.h tests/brute_kport.h tests/brute_rrp.h tests/brute_mbcast.h tests/brute_mreduce.h

all: build/optcast build/liboptcast.a

define variant
# $(1) = build dir, $(2) = extra flags
$(1)/obj/src/cli/%.o: src/cli/%.c $(HDRS)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(CSTD) $$(WARN) $(2) -pthread -Iinclude -c $$< -o $$@
$(1)/obj/%.o: %.c $(HDRS)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(CSTD) $$(WARN) $(2) -pthread -Iinclude -Isrc -c $$< -o $$@
$(1)/liboptcast.a: $(LIB_SRC:%.c=$(1)/obj/%.o)
	ar rcs $$@ $$^
$(1)/optcast: $(CLI_SRC:%.c=$(1)/obj/%.o) $(1)/liboptcast.a
	$$(CC) $(2) -pthread -o $$@ $$^ -lm
$(1)/test_optcast: $(TEST_SRC:%.c=$(1)/obj/%.o) $(1)/liboptcast.a
	$$(CC) $(2) -pthread -o $$@ $$^ -lm
endef
$(eval $(call variant,build,$(CFLAGS)))
$(eval $(call variant,build-san,$(SANFLAGS)))

# position-independent objects (build-pic/obj/): the shared library, and the
# MPI half's archive and interposer (mpi.mk)
PIC_HDRS = $(sort $(HDRS))
PIC_FLAGS = $(CFLAGS) -fPIC -pthread
build-pic/obj/%.o: %.c $(PIC_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(PIC_FLAGS) -Iinclude -Isrc -c $< -o $@

# the release, from include/optcast/version.h (the one place it is written)
VERSION := $(shell sed -n 's/^\#define OC_VERSION_STRING "\(.*\)"/\1/p' include/optcast/version.h)
SOVERSION := $(word 1,$(subst ., ,$(VERSION))).$(word 2,$(subst ., ,$(VERSION)))
# the shared library: liboptcast.so.$(VERSION), soname liboptcast.so.$(SOVERSION)
# (MAJOR.MINOR before 1.0); only the oc_* functions are exported
build/liboptcast.so.$(VERSION): $(LIB_SRC:%.c=build-pic/obj/%.o) build/optcast.map
	$(CC) -shared -Wl,-soname,liboptcast.so.$(SOVERSION) -Wl,--version-script,build/optcast.map \
	  -o $@ $(filter %.o,$^) -pthread -lm
build/optcast.map:
	@mkdir -p build
	printf '{\n  global: oc_*;\n  local: *;\n};\n' > $@
shared: build/liboptcast.so.$(VERSION)

demo: build/optcast
	./build/optcast plan bcast --procs 8 --latency 6 --overhead 2 --gap 4
	./build/optcast plan bcast --procs 8 --latency 6 --overhead 2 --gap 4 --csv \
	  | ./build/optcast verify bcast --procs 8 --latency 6 --overhead 2 --gap 4
	./build/optcast plan bcast --model postal --lambda 5/2 --procs 14 --algorithm bar-noy-kipnis --json

check: build/test_optcast build/optcast build-san/test_optcast build-san/optcast
	@sh tests/run.sh

# the golden drawings (tests/golden/LIST): regenerate after a deliberate change
golden: build/optcast
	@grep -v '^#' tests/golden/LIST | while read -r name args; do \
	  [ -n "$$name" ] || continue; \
	  ./build/optcast draw $$args --svg tests/golden/$$name.svg || exit 1; \
	  echo "tests/golden/$$name.svg"; \
	done

# renders a drawing in headless Chromium and checks the PNG (not in check)
svg-e2e: build/optcast
	sh tests/svg_e2e.sh

sweep: build/test_optcast build/optcast build/bench_rrp
	OPTCAST_SWEEP=1 ./build/test_optcast
	./build/bench_rrp all 4096

# libFuzzer targets (clang): `make fuzz FUZZ_SECONDS=60`
FUZZ_SECONDS ?= 45
FUZZ_FLAGS = -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_TARGETS = build-fuzz/fuzz_verify build-fuzz/fuzz_numbers build-fuzz/fuzz_cli
build-fuzz/fuzz_cli: fuzz/fuzz_cli.c $(LIB_SRC) $(CLI_SRC) $(HDRS)
	@mkdir -p build-fuzz
	clang $(CSTD) $(WARN) $(FUZZ_FLAGS) -pthread -DOC_CLI_NO_MAIN -Iinclude -Isrc -o $@ fuzz/fuzz_cli.c $(LIB_SRC) $(CLI_SRC) -lm
build-fuzz/fuzz_%: fuzz/fuzz_%.c $(LIB_SRC) $(HDRS)
	@mkdir -p build-fuzz
	clang $(CSTD) $(WARN) $(FUZZ_FLAGS) -pthread -Iinclude -Isrc -o $@ $< $(LIB_SRC) -lm
fuzz: $(FUZZ_TARGETS)
	sh fuzz/run.sh $(FUZZ_SECONDS)

bench: build/bench_rank build/bench_plan build/bench_kport build/bench_libcoll build/bench_rrp build/bench_cbcast build/bench_mbcast build/bench_mreduce build/bench_rtchoose
	./build/bench_rank
	./build/bench_plan
	./build/bench_kport time
	./build/bench_libcoll
	./build/bench_rrp time
	./build/bench_cbcast
	./build/bench_mbcast rank
	./build/bench_mbcast scale 24
	./build/bench_mreduce rank
	./build/bench_mreduce scale 20
	./build/bench_mreduce plan 16
	./build/bench_rtchoose

build/bench_%: bench/bench_%.c bench/bench.h build/liboptcast.a $(HDRS)
	$(CC) $(CSTD) $(WARN) -O2 -g -Iinclude -Isrc -o $@ $< build/liboptcast.a -lm

clean:
	rm -rf build build-san build-fuzz build-pic build-pic-san

.PHONY: all demo check sweep bench fuzz clean golden svg-e2e shared
-include mpi.mk
-include smpi.mk
-include install.mk
