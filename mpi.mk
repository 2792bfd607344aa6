# mpi.mk - the MPI half (docs/MPI.md), included at the end of Makefile.
#   make mpi        build/liboptcast_mpi.so (PMPI interposer), build/test_coll_mpi,
#                   build/test_interpose, build/bench_mpi, build/optcast_measure_mpi
#   make mpi-check  the MPI tests (tests/mpi/run.sh): np = 1 2 3 5 8 16 33
# Without mpicc on PATH, mpi-check prints a skip note.  The interposer links a
# position-independent build of the library (build-pic/).
#   make mpi-check-mpich   the same with MPICH (mpicc.mpich, mpiexec.mpich) into
#                   build/mpich/ and build-pic/mpich/, beside Open MPI's build
# MPICC, MPIRUN: the MPI; MPIDIR: its programs; MPIPIC, MPIPIC_SAN: its objects
# and archives (the MPI-free objects in build-pic/obj/ are shared).
MPICC ?= mpicc
MPIRUN ?= mpirun
MPIDIR ?= build
MPIPIC ?= build-pic
MPIPIC_SAN ?= build-pic-san
HAVE_MPICC := $(shell command -v $(MPICC) 2>/dev/null)

ifneq ($(HAVE_MPICC),)
# the library sources: the Makefile's plus the runtime's (src/rt/), MPI ones apart
MPI_SRC  = src/rt/rt_mpi.c
PIC_SRC  = $(filter-out $(MPI_SRC),$(sort $(LIB_SRC) $(wildcard src/rt/*.c)))
# MPI's headers are system headers (not ours to warn about)
MPI_INC := $(patsubst -I%,-isystem %,$(filter -I%,$(shell $(MPICC) --showme:compile 2>/dev/null || $(MPICC) -show 2>/dev/null)))

$(MPIPIC)/mpi/%.o: %.c $(PIC_HDRS)
	@mkdir -p $(dir $@)
	$(MPICC) $(CSTD) $(WARN) $(PIC_FLAGS) $(MPI_INC) -Iinclude -Isrc -c $< -o $@
$(MPIPIC)/liboptcast_mpi.a: $(PIC_SRC:%.c=build-pic/obj/%.o) $(MPI_SRC:%.c=$(MPIPIC)/mpi/%.o)
	@rm -f $@
	ar rcs $@ $^
# the archive's symbols stay inside the shared object (--exclude-libs)
$(MPIDIR)/liboptcast_mpi.so: $(MPIPIC)/mpi/src/mpi/mpi_interpose.o $(MPIPIC)/liboptcast_mpi.a
	@mkdir -p $(MPIDIR)
	$(MPICC) -shared -fPIC -o $@ $< $(MPIPIC)/liboptcast_mpi.a -Wl,--exclude-libs,ALL -pthread -lm
$(MPIDIR)/test_coll_mpi: tests/mpi/test_coll_mpi.c $(MPIPIC)/liboptcast_mpi.a $(PIC_HDRS)
	@mkdir -p $(MPIDIR)
	$(MPICC) $(CSTD) $(WARN) $(CFLAGS) $(MPI_INC) -Iinclude -o $@ $< $(MPIPIC)/liboptcast_mpi.a -pthread -lm
# a plain MPI program: no optcast header, no optcast library
$(MPIDIR)/test_interpose: tests/mpi/test_interpose.c
	@mkdir -p $(MPIDIR)
	$(MPICC) $(CSTD) $(WARN) $(CFLAGS) $(MPI_INC) -o $@ $< -lm

# programs on the transport: the benchmark against the MPI library's
# collectives (bench/mpi_bench.sh) and the parameter measurement over MPI
MPI_PROGS = $(patsubst bench/%.c,$(MPIDIR)/%,$(wildcard bench/bench_mpi.c)) \
            $(patsubst tools/%.c,$(MPIDIR)/%,$(wildcard tools/optcast_measure_mpi.c))
$(MPIDIR)/bench_mpi: bench/bench_mpi.c
$(MPIDIR)/optcast_measure_mpi: tools/optcast_measure_mpi.c
$(MPI_PROGS): $(MPIPIC)/liboptcast_mpi.a $(PIC_HDRS)
	@mkdir -p $(MPIDIR)
	$(MPICC) $(CSTD) $(WARN) $(CFLAGS) $(MPI_INC) -Iinclude -o $@ $(filter %.c,$^) $(MPIPIC)/liboptcast_mpi.a -pthread -lm

# the MPI tests under ASan + UBSan: the library, the transport and the test
# program built with the sanitizers (build-pic-san/); the interposer under
# ASan: the same objects in a shared object, preloaded after libasan
SAN_PIC_FLAGS = $(SANFLAGS) -fPIC -pthread
build-pic-san/obj/%.o: %.c $(PIC_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(SAN_PIC_FLAGS) -Iinclude -Isrc -c $< -o $@
$(MPIPIC_SAN)/mpi/%.o: %.c $(PIC_HDRS)
	@mkdir -p $(dir $@)
	$(MPICC) $(CSTD) $(WARN) $(SAN_PIC_FLAGS) $(MPI_INC) -Iinclude -Isrc -c $< -o $@
$(MPIPIC_SAN)/liboptcast_mpi.a: $(PIC_SRC:%.c=build-pic-san/obj/%.o) $(MPI_SRC:%.c=$(MPIPIC_SAN)/mpi/%.o)
	@rm -f $@
	ar rcs $@ $^
$(MPIDIR)/test_coll_mpi_san: tests/mpi/test_coll_mpi.c $(MPIPIC_SAN)/liboptcast_mpi.a $(PIC_HDRS)
	@mkdir -p $(MPIDIR)
	$(MPICC) $(CSTD) $(WARN) $(SANFLAGS) $(MPI_INC) -Iinclude -o $@ $< $(MPIPIC_SAN)/liboptcast_mpi.a -pthread -lm
$(MPIDIR)/liboptcast_mpi_san.so: $(MPIPIC_SAN)/mpi/src/mpi/mpi_interpose.o $(MPIPIC_SAN)/liboptcast_mpi.a
	@mkdir -p $(MPIDIR)
	$(MPICC) -shared -fPIC $(SANFLAGS) -o $@ $< $(MPIPIC_SAN)/liboptcast_mpi.a -Wl,--exclude-libs,ALL -pthread -lm

mpi: $(MPIDIR)/liboptcast_mpi.so $(MPIDIR)/test_coll_mpi $(MPIDIR)/test_interpose $(MPI_PROGS) \
     $(MPIDIR)/test_coll_mpi_san $(MPIDIR)/liboptcast_mpi_san.so
mpi-check: mpi
	@MPIRUN='$(MPIRUN)' MPICC='$(MPICC)' MPI_BUILD='$(MPIDIR)' sh tests/mpi/run.sh
else
mpi:
	@echo "SKIP mpi (mpicc not installed)"
mpi-check:
	@echo "SKIP mpi-check (mpicc not installed)"
endif
# MPICH as a second MPI: the same programs and tests, its own directories
MPICH_VARS = MPICC=mpicc.mpich MPIRUN=mpiexec.mpich MPIDIR=build/mpich \
             MPIPIC=build-pic/mpich MPIPIC_SAN=build-pic-san/mpich
ifneq ($(shell command -v mpicc.mpich 2>/dev/null),)
mpi-mpich:
	@$(MAKE) --no-print-directory $(MPICH_VARS) mpi
# np = 33 is left out: on two cores, 33 ranks of MPICH 4.0 (ch4, UCX) poll
# without yielding and the test runs past its limit (docs/MPI.md)
mpi-check-mpich:
	@MPI_NPS="$${MPI_NPS:-1 2 3 5 8 16}" $(MAKE) --no-print-directory $(MPICH_VARS) mpi-check
else
mpi-mpich mpi-check-mpich:
	@echo "SKIP $@ (mpicc.mpich not installed: Debian package mpich)"
endif
mpi-clean:
	rm -rf build-pic build-pic-san build/liboptcast_mpi.so build/test_coll_mpi build/test_interpose \
	  build/bench_mpi build/optcast_measure_mpi build/test_coll_mpi_san build/liboptcast_mpi_san.so build/mpich

.PHONY: mpi mpi-check mpi-clean mpi-mpich mpi-check-mpich
