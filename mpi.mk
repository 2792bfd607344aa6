# mpi.mk - the MPI half (docs/MPI.md), included at the end of Makefile.
#   make mpi        build/liboptcast_mpi.so (PMPI interposer), build/test_coll_mpi,
#                   build/test_interpose, build/bench_mpi, build/optcast_measure_mpi
#   make mpi-check  the MPI tests (tests/mpi/run.sh): np = 1 2 3 5 8 16 33
# Without mpicc on PATH, mpi-check prints a skip note.  The interposer links a
# position-independent build of the library (build-pic/).
MPICC ?= mpicc
HAVE_MPICC := $(shell command -v $(MPICC) 2>/dev/null)

ifneq ($(HAVE_MPICC),)
# the library sources: the Makefile's plus the runtime's (src/rt/), MPI ones apart
MPI_SRC  = src/rt/rt_mpi.c
PIC_SRC  = $(filter-out $(MPI_SRC),$(sort $(LIB_SRC) $(wildcard src/rt/*.c)))
PIC_HDRS = $(sort $(HDRS))
PIC_FLAGS = $(CFLAGS) -fPIC -pthread
# MPI's headers are system headers (not ours to warn about)
MPI_INC := $(patsubst -I%,-isystem %,$(filter -I%,$(shell $(MPICC) --showme:compile 2>/dev/null || $(MPICC) -show 2>/dev/null)))

build-pic/obj/%.o: %.c $(PIC_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(PIC_FLAGS) -Iinclude -Isrc -c $< -o $@
build-pic/mpi/%.o: %.c $(PIC_HDRS)
	@mkdir -p $(dir $@)
	$(MPICC) $(CSTD) $(WARN) $(PIC_FLAGS) $(MPI_INC) -Iinclude -Isrc -c $< -o $@
build-pic/liboptcast_mpi.a: $(PIC_SRC:%.c=build-pic/obj/%.o) $(MPI_SRC:%.c=build-pic/mpi/%.o)
	@rm -f $@
	ar rcs $@ $^
# the archive's symbols stay inside the shared object (--exclude-libs)
build/liboptcast_mpi.so: build-pic/mpi/src/mpi/mpi_interpose.o build-pic/liboptcast_mpi.a
	@mkdir -p build
	$(MPICC) -shared -fPIC -o $@ $< build-pic/liboptcast_mpi.a -Wl,--exclude-libs,ALL -pthread -lm
build/test_coll_mpi: tests/mpi/test_coll_mpi.c build-pic/liboptcast_mpi.a $(PIC_HDRS)
	@mkdir -p build
	$(MPICC) $(CSTD) $(WARN) $(CFLAGS) $(MPI_INC) -Iinclude -o $@ $< build-pic/liboptcast_mpi.a -pthread -lm
# a plain MPI program: no optcast header, no optcast library
build/test_interpose: tests/mpi/test_interpose.c
	@mkdir -p build
	$(MPICC) $(CSTD) $(WARN) $(CFLAGS) $(MPI_INC) -o $@ $< -lm

# programs on the transport: the benchmark against the MPI library's
# collectives (bench/mpi_bench.sh) and the parameter measurement over MPI
MPI_PROGS = $(patsubst bench/%.c,build/%,$(wildcard bench/bench_mpi.c)) \
            $(patsubst tools/%.c,build/%,$(wildcard tools/optcast_measure_mpi.c))
build/bench_mpi: bench/bench_mpi.c
build/optcast_measure_mpi: tools/optcast_measure_mpi.c
$(MPI_PROGS): build-pic/liboptcast_mpi.a $(PIC_HDRS)
	@mkdir -p build
	$(MPICC) $(CSTD) $(WARN) $(CFLAGS) $(MPI_INC) -Iinclude -o $@ $(filter %.c,$^) build-pic/liboptcast_mpi.a -pthread -lm

# the MPI tests under ASan + UBSan: the library, the transport and the test
# program built with the sanitizers (build-pic-san/); the interposer under
# ASan: the same objects in a shared object, preloaded after libasan
SAN_PIC_FLAGS = $(SANFLAGS) -fPIC -pthread
build-pic-san/obj/%.o: %.c $(PIC_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(SAN_PIC_FLAGS) -Iinclude -Isrc -c $< -o $@
build-pic-san/mpi/%.o: %.c $(PIC_HDRS)
	@mkdir -p $(dir $@)
	$(MPICC) $(CSTD) $(WARN) $(SAN_PIC_FLAGS) $(MPI_INC) -Iinclude -Isrc -c $< -o $@
build-pic-san/liboptcast_mpi.a: $(PIC_SRC:%.c=build-pic-san/obj/%.o) $(MPI_SRC:%.c=build-pic-san/mpi/%.o)
	@rm -f $@
	ar rcs $@ $^
build/test_coll_mpi_san: tests/mpi/test_coll_mpi.c build-pic-san/liboptcast_mpi.a $(PIC_HDRS)
	@mkdir -p build
	$(MPICC) $(CSTD) $(WARN) $(SANFLAGS) $(MPI_INC) -Iinclude -o $@ $< build-pic-san/liboptcast_mpi.a -pthread -lm
build/liboptcast_mpi_san.so: build-pic-san/mpi/src/mpi/mpi_interpose.o build-pic-san/liboptcast_mpi.a
	@mkdir -p build
	$(MPICC) -shared -fPIC $(SANFLAGS) -o $@ $< build-pic-san/liboptcast_mpi.a -Wl,--exclude-libs,ALL -pthread -lm

mpi: build/liboptcast_mpi.so build/test_coll_mpi build/test_interpose $(MPI_PROGS) \
     build/test_coll_mpi_san build/liboptcast_mpi_san.so
mpi-check: mpi
	@sh tests/mpi/run.sh
else
mpi:
	@echo "SKIP mpi (mpicc not installed)"
mpi-check:
	@echo "SKIP mpi-check (mpicc not installed)"
endif
mpi-clean:
	rm -rf build-pic build-pic-san build/liboptcast_mpi.so build/test_coll_mpi build/test_interpose \
	  build/bench_mpi build/optcast_measure_mpi build/test_coll_mpi_san build/liboptcast_mpi_san.so

.PHONY: mpi mpi-check mpi-clean
