# smpi.mk - optcast's MPI runtime on SimGrid's SMPI (docs/SMPI.md), included
# at the end of Makefile.
#   make smpi        bench/smpi/run.sh: builds the programs below, writes the
#                    simulated clusters and runs the benchmark (installs
#                    Debian's libsimgrid-dev first when smpicc is missing)
#   make smpi-build  build-smpi/bench_mpi and build-smpi/optcast_measure_mpi,
#                    linked against SMPI (needs smpicc)
#   make smpi-check  the smoke test: P = 16, a few sizes, every collective,
#                    results checked on every rank (a skip note without smpicc)
# The planner, verifier and models are compiled with cc; the runtime
# (src/rt/) and the programs go through smpicc, whose helper header puts
# clock_gettime and nanosleep on the simulated clock (the runtime's deadlines
# and `measure`'s timings).
SMPICC ?= smpicc
HAVE_SMPICC := $(shell command -v $(SMPICC) 2>/dev/null)
SMPI_RT_SRC = $(sort $(wildcard src/rt/*.c))
SMPI_LIB_SRC = $(filter-out src/rt/%,$(LIB_SRC))
SMPI_PROGS = build-smpi/bench_mpi build-smpi/optcast_measure_mpi

ifneq ($(HAVE_SMPICC),)
SMPI_INC := $(patsubst -I%,-isystem %,$(filter -I%,$(shell $(SMPICC) -show 2>/dev/null)))
build-smpi/obj/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -fPIC -pthread -Iinclude -Isrc -c $< -o $@
build-smpi/mpi/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(SMPICC) $(CSTD) $(WARN) $(CFLAGS) -fPIC -pthread $(SMPI_INC) -Iinclude -Isrc -c $< -o $@
build-smpi/liboptcast_smpi.a: $(SMPI_LIB_SRC:%.c=build-smpi/obj/%.o) $(SMPI_RT_SRC:%.c=build-smpi/mpi/%.o)
	@rm -f $@
	ar rcs $@ $^
build-smpi/bench_mpi: bench/bench_mpi.c
build-smpi/optcast_measure_mpi: tools/optcast_measure_mpi.c
$(SMPI_PROGS): build-smpi/liboptcast_smpi.a $(HDRS)
	$(SMPICC) $(CSTD) $(WARN) $(CFLAGS) $(SMPI_INC) -Iinclude -o $@ $(filter %.c,$^) \
	  build-smpi/liboptcast_smpi.a -pthread -lm
smpi-build: $(SMPI_PROGS)
smpi-check: $(SMPI_PROGS)
	@sh bench/smpi/run.sh --smoke
else
smpi-build:
	@echo "smpi-build: smpicc not found (Debian: apt-get install libsimgrid-dev)" >&2; exit 2
smpi-check:
	@echo "SKIP smpi-check (smpicc not installed)"
endif
smpi:
	@sh bench/smpi/run.sh
smpi-clean:
	rm -rf build-smpi

.PHONY: smpi smpi-build smpi-check smpi-clean
