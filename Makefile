# hetsim - build, test, run.  See README.md.
#
#   make run          install missing deps, build, run the default paper scenario
#   make check        install missing deps, build, run the CUnit tests
#   make check SAN=1  the same with address + undefined sanitizers
#   make check-browser  hetsim report's pages render in headless chromium (installs it)
#   make fuzz FUZZ_SECONDS=N  the libFuzzer targets, N s each (installs clang; tests/fuzz/)
#   make check-valgrind  the paper scenarios and sweeps under valgrind memcheck (installs it)
#   make figures      the default scenario's figures (runs it first where needed)
#   make paper        both experiments of the study -> results/paper/ (report.md)
#   make bench        the benchmarks -> results/bench/ (bench/README.md)
#   make cuda         the CUDA calibration program, where nvcc exists
#   make cuda-host    its kernels built for the host by g++ (linked into make check)
#   make MPI=1        bin/hetsim-mpi: `hetsim sweep` across MPI ranks (mpicc, OpenMPI)
#   make BLAS=gslcblas  link GSL's reference CBLAS instead of OpenBLAS
#   make install PREFIX=DIR  bin/hetsim, include/hetsim/policy.h, lib/pkgconfig/hetsim.pc
#   make clean

CC      ?= cc
PKGS    := gsl yaml-0.1 cunit libzstd
VERSION := 0.1.0
# The machine's cores: how many test suites (TEST_JOBS) and FGD pod lists
# (FGD_JOBS) run at a time by default.
CORES   := $(shell nproc 2>/dev/null || echo 2)

# The include path, one list for every build (the fuzz build's too).
INCDIRS := -I. -Iinclude -Iscenario -Isim -Ipolicies -Iworkloads -Iinput -Iplot -Icli -Icalibrate
CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L \
           -pthread -DHETSIM_VERSION='"$(VERSION)"' $(INCDIRS)
# GLPK (Debian's libglpk-dev, no pkg-config file): gavel's linear program.
LDLIBS  += -lglpk -lm -pthread -ldl
# Policy plugins (include/hetsim/policy.h, policies/plugin.c) resolve the
# ABI's hetsim_ functions against the binary that loads them: export its
# symbols.
LDFLAGS += -rdynamic

ifeq ($(SAN),1)
  CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer \
             -fno-sanitize-recover=undefined -DSIM_CHECK_EVERY_EVENT=1
  LDFLAGS += -fsanitize=address,undefined
  BUILD   := build/san
else
  BUILD   := build/opt
endif

# MPI=1: the same sources through OpenMPI's mpicc with HETSIM_MPI, into
# their own build folder and bin/hetsim-mpi.  Without it nothing
# MPI-related is compiled.
ifeq ($(MPI),1)
  CC      := mpicc
  CFLAGS  += -DHETSIM_MPI
  BUILD   := $(BUILD)-mpi
endif

# pkg-config is asked only when a target needs the libraries, so that
# `make clean` works on a machine where nothing is installed yet.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(if $(filter openblas,$(BLAS_USED)),$(filter-out -lgslcblas,$(PKG_LIBS_GSL)) \
               $(shell pkg-config --libs openblas 2>/dev/null),$(PKG_LIBS_GSL))
PKG_LIBS_GSL = $(shell pkg-config --libs $(PKGS) 2>/dev/null)

# The CBLAS under GSL and the mnist_step kernel (calibrate/README.md,
# "Kernels"): OpenBLAS where pkg-config knows it (Debian's
# libopenblas-serial-dev, which scripts/install-deps installs), in place
# of gslcblas, as Debian's GSL expects (both define the cblas_ symbols);
# else gslcblas.  BLAS=gslcblas forces the fallback.  The choice is
# written to $(BUILD)/BLAS (rewritten only when it changes, as git's
# GIT-CFLAGS), on which the binaries depend, so a change relinks them.
BLAS      ?= auto
BLAS_USED  = $(if $(filter gslcblas,$(BLAS)),gslcblas,$(if $(filter openblas,$(BLAS)),openblas,$(shell pkg-config --exists openblas 2>/dev/null && echo openblas || echo gslcblas)))

LIB_SRC  := $(wildcard scenario/*.c sim/*.c policies/*.c workloads/*.c input/*.c plot/*.c calibrate/*.c calibrate/cpu/*.c) $(filter-out cli/main.c,$(wildcard cli/*.c))
# The built-in default cost model: calibrate/models/default.yaml as a C
# string (input/load.h, scn_default_model_yaml), made from the
# file at build time so that the two never differ.
GEN_OBJ  := $(BUILD)/gen/default_model.o
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o) $(GEN_OBJ)
TEST_SRC := $(wildcard tests/*.c)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)

BIN      := bin/hetsim$(if $(filter 1,$(MPI)),-mpi,)$(if $(filter 1,$(SAN)),-san,)
TESTBIN  := $(BUILD)/hetsim-tests

.PHONY: all run check test clean deps figures paper
all: $(BIN)

# Every compilation waits for deps (order-only: it never forces a
# rebuild), so that one make builds the binary once whatever the targets
# asked for (make -j2 run check figures paper).
deps:
	@scripts/install-deps
ifeq ($(MPI),1)
	@scripts/install-deps mpi
endif

$(BUILD)/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/gen/default_model.c: calibrate/models/default.yaml Makefile | deps
	@mkdir -p $(dir $@)
	awk 'BEGIN { print "/* made by the Makefile from $<: do not edit */"; \
		     print "const char scn_default_model_yaml[] ="; } \
	     { gsub(/\\/, "&&"); gsub(/"/, "\\\""); printf "\t\"%s\\n\"\n", $$0 } \
	     END { print "\t\"\";" }' $< > $@.tmp && mv $@.tmp $@

$(GEN_OBJ): $(BUILD)/gen/default_model.c
	$(CC) $(CFLAGS) -c $< -o $@

.PHONY: FORCE
$(BUILD)/BLAS: FORCE | deps
	@mkdir -p $(dir $@)
	@echo '$(BLAS_USED)' | cmp -s - $@ || { echo '$(BLAS_USED)' > $@; echo "BLAS: $(BLAS_USED)"; }

$(BIN): $(LIB_OBJ) $(BUILD)/cli/main.o $(BUILD)/BLAS
	@mkdir -p bin
	$(CC) $(LDFLAGS) -o $@ $(filter %.o,$^) $(PKG_LIBS) $(LDLIBS)

# `make cuda-host`: the CUDA program's kernels (calibrate/cuda/kernels.cuh)
# built for the host by g++, behind a C interface (cuda_host.h), linked
# into the tests only (calibrate/cuda/README.md, "Host build").  No C++
# library, no exceptions, so $(CC) links it; sanitizers as the C code.
CUDA_HOST_OBJ   := $(BUILD)/calibrate/cuda/cuda_host.o
CUDA_HOST_FLAGS := -O2 -g -std=c++17 -Wall -Wextra -Werror -fno-exceptions -fno-rtti \
                   $(filter -fsanitize=% -fno-omit-frame-pointer -fno-sanitize-recover=%,$(CFLAGS))

.PHONY: cuda-host
cuda-host: $(CUDA_HOST_OBJ)

$(CUDA_HOST_OBJ): calibrate/cuda/cuda_host.cpp | deps
	@mkdir -p $(dir $@)
	$(CXX) $(CUDA_HOST_FLAGS) -MMD -MP -c $< -o $@

# The plugin test builds plugins, and the layers test objects, with this
# build's compiler and sanitizers.
$(BUILD)/tests/test_plugin.o $(BUILD)/tests/test_layers.o: CFLAGS += -DPLUGIN_CC='"$(CC)"' -DPLUGIN_SAN=$(if $(filter 1,$(SAN)),1,0)

$(TESTBIN): $(LIB_OBJ) $(TEST_OBJ) $(CUDA_HOST_OBJ) $(BUILD)/BLAS
	$(CC) $(LDFLAGS) -o $@ $(filter %.o,$^) $(PKG_LIBS) $(LDLIBS)


# `make run`: the default paper scenario, stock Spark against label-dual.
run: deps $(BIN)
	./$(BIN) run scenarios/paper-mixed.yaml --policy spark-standalone --policy label-dual

# The modules' layers first (scripts/check-layers: no include cycle,
# policies and workloads side by side, no policy reading a job's model;
# scripts/check-file-cycles: no circle of files within a module, from
# the objects), then the CUnit suites (TEST_JOBS at a time, default the
# cores: tests/test_main.c), then tests/mpi-sweep.sh (it
# builds MPI=1 itself) where OpenMPI is installed; not under the
# sanitizers.
TEST_JOBS ?= $(CORES)
check: deps $(BIN) $(TESTBIN)
	scripts/check-layers
	scripts/check-file-cycles $(BUILD)
	./$(TESTBIN) -j $(TEST_JOBS)
	scripts/check-samples ./$(BIN)
	scripts/check-tour ./$(BIN)
ifeq ($(SAN),1)
	@echo "mpi-sweep: skipped (SAN=1)"
else
	@if command -v mpicc >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1; then \
		tests/mpi-sweep.sh; \
	else \
		echo "mpi-sweep: skipped (no mpicc/mpirun)"; \
	fi
endif

test: check

# `make check-browser` (scripts/check-browser; CI runs it): the reports of
# a fresh run, sweep and compare and the committed results/paper,
# results/compare and results/fgd pages, opened in headless chromium
# (installed by scripts/install-deps browser if missing): every figure
# parsed, no console message, a non-blank screenshot of the expected size.
# `make check` needs no browser.
.PHONY: check-browser
check-browser: deps $(BIN)
	scripts/check-browser ./$(BIN)

# `make check-valgrind` (scripts/check-valgrind; CI runs it): the paper
# scenarios and two sweeps (forked workers followed) under valgrind
# memcheck; any error or definite leak fails.  The optimised build.
.PHONY: check-valgrind
check-valgrind: deps
	@$(MAKE) --no-print-directory SAN=0 MPI=0 bin/hetsim
	scripts/check-valgrind bin/hetsim

clean:
	rm -rf build bin calibrate/cuda/hetsim-cuda-cal
	rm -f policies/template/*.so

# `make install PREFIX=/opt/hetsim` (default /usr/local; DESTDIR too):
# the binary, the policy plugin ABI's header and a pkg-config file, so
# that a plugin builds with `pkg-config --cflags hetsim`
# (docs/writing-a-policy.md).  Builds the optimised binary first.
PREFIX ?= /usr/local
.PHONY: install
install:
	@$(MAKE) --no-print-directory SAN=0 MPI=0 bin/hetsim
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include/hetsim \
		$(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 755 bin/hetsim $(DESTDIR)$(PREFIX)/bin/hetsim
	install -m 644 include/hetsim/policy.h $(DESTDIR)$(PREFIX)/include/hetsim/policy.h
	printf '%s\n' 'prefix=$(PREFIX)' 'includedir=$${prefix}/include' '' \
		'Name: hetsim' \
		'Description: hetsim policy plugin ABI (hetsim/policy.h)' \
		'Version: $(VERSION)' \
		'Cflags: -I$${includedir}' \
		> $(DESTDIR)$(PREFIX)/lib/pkgconfig/hetsim.pc
	chmod 644 $(DESTDIR)$(PREFIX)/lib/pkgconfig/hetsim.pc

-include $(LIB_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(BUILD)/cli/main.d $(CUDA_HOST_OBJ:.o=.d)

# Figures of the default paper scenario's results, rendered by gnuplot
# into results/paper-mixed/figures/.  The results are those `make run`
# wrote; where runs.csv, types.csv or executors.csv is missing or older
# than the binary, the scenario or its cost model, the scenario is run
# first (every policy it lists), so that this works on a fresh clone.
MIXED     := scenarios/paper-mixed.yaml
MIXED_OUT := results/paper-mixed
# (after `run`, when one make is asked for both: they write the same folder)
figures: deps $(BIN) | $(filter run,$(MAKECMDGOALS))
	@for f in runs.csv types.csv executors.csv; do \
		for d in $(BIN) $(MIXED) calibrate/models/default.yaml; do \
			if [ ! -f $(MIXED_OUT)/$$f ] || [ $(MIXED_OUT)/$$f -ot $$d ]; then \
				echo "figures: $(MIXED_OUT)/$$f is missing or older than $$d: running $(MIXED) first"; \
				./$(BIN) run $(MIXED) -q -o $(MIXED_OUT) || exit 1; \
				exit 0; \
			fi; \
		done; \
	done
	./$(BIN) plot all -d $(MIXED_OUT) -s $(MIXED)

# Both experiments of the study, label-dual against every stock baseline,
# the ablation, the sensitivity map, every figure and
# results/paper/report.md (scripts/paper).  Never calibrates.
paper: deps $(BIN)
	scripts/paper ./$(BIN)

# `make fgd`: the FGD experiment (docs/policies/fgd.md, "The experiment")
# on each of the artifact's 17 pod lists: the pods offered to the openb
# GPU nodes, resized to 130 % of their GPU capacity, seeds 42-51, the six
# policies of the study; writes results/fgd/LIST/ (committed) with its
# report.html, and results/fgd/published.txt, each list against the
# artifact's expected results (scripts/fgd, scripts/fgd-vs-published).
# FGD_JOBS lists at a time (default: the cores).  Not part of `make
# paper` or CI (about a minute per list on one core);
# tests/test_policies.c runs small cases in `make check`.
FGD_JOBS ?= $(CORES)
.PHONY: fgd
fgd: deps $(BIN)
	scripts/fgd -j $(FGD_JOBS) ./$(BIN)

# `make reproduce`: every published experiment hetsim can express against
# its published figures (docs/reproduce.md): FGD on its 17 pod lists (as
# `make fgd`, which it reruns) and the Spark event logs' replay; writes
# results/reproduce/ (committed: report.md, report.html, the CSV of every
# cell).  Not part of `make check` or CI (under 10 minutes on 2 cores).
.PHONY: reproduce
reproduce: deps $(BIN)
	scripts/reproduce -j $(FGD_JOBS) ./$(BIN)

# `make cuda`: calibrate/cuda/hetsim-cuda-cal, the standalone CUDA
# measuring program (calibrate/cuda/README.md).  Needs only the CUDA
# toolkit; where nvcc is missing it says so and succeeds.  sm_80 (A100),
# sm_90 (H100/H200) and compute_90 PTX for later GPUs.  Not part of
# `make check`: this machine may have nvcc but no GPU.
CUDA_HOME ?= /usr/local/cuda
NVCC      ?= $(CUDA_HOME)/bin/nvcc
NVCCFLAGS ?= -O2 -std=c++17 -Xcompiler -Wall \
             -gencode arch=compute_80,code=sm_80 \
             -gencode arch=compute_90,code=sm_90 \
             -gencode arch=compute_90,code=compute_90
CUDA_CAL  := calibrate/cuda/hetsim-cuda-cal

.PHONY: cuda
cuda:
	@if command -v "$(NVCC)" >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory $(CUDA_CAL); \
	else \
		echo "cuda: nvcc not found at $(NVCC); skipped"; \
	fi

$(CUDA_CAL): calibrate/cuda/hetsim-cuda-cal.cu calibrate/cuda/kernels.cuh calibrate/cuda/host_exec.h
	$(NVCC) $(NVCCFLAGS) -o $@ $< -Xlinker -rpath,$(CUDA_HOME)/lib64 -lcublas

# `make bench` (bench/run, bench/README.md): the event queue alone, the
# fifo task farm through `hetsim run` beside SimGrid, the 10^6-job
# heterogeneous mix on 10^4 nodes under four policies and each beside
# fifo on a smaller mix, a DAGSim-like application against its exact
# expected makespan, and scaling curves -> results/bench/ (bench.csv,
# machine.txt, scaling.png).  Every comparison: the median of 5
# alternating pairs' ratios, with min and max.  A benchmark, never part
# of `make check`; about eight minutes.  FULL=1 lengthens the farm's
# scaling curves.  Always the optimised build.
# The SimGrid side is built only where libsimgrid-dev is installed
# (apt-get install -y libsimgrid-dev); otherwise it is skipped.
BENCH_CFLAGS := -O2 -g -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -Isim
CXX          ?= g++

.PHONY: bench
bench: deps
	@$(MAKE) --no-print-directory SAN=0 MPI=0 bin/hetsim build/bench/eq_bench build/bench/walltime
	@if pkg-config --exists simgrid 2>/dev/null; then \
		$(MAKE) --no-print-directory SAN=0 MPI=0 build/bench/simgrid_farm; \
	else \
		echo "bench: libsimgrid-dev not installed; the SimGrid comparison is skipped"; \
		rm -f build/bench/simgrid_farm; \
	fi
	FULL=$(FULL) bench/run

build/bench/eq_bench: bench/eq_bench.c sim/eq.c sim/eq.h sim/util.c sim/util.h
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) -o $@ bench/eq_bench.c sim/eq.c sim/util.c -lm

build/bench/walltime: bench/walltime.c
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) -o $@ bench/walltime.c

build/bench/simgrid_farm: bench/simgrid_farm.cpp
	@mkdir -p $(dir $@)
	$(CXX) -O2 -std=c++17 -Wall -Wextra $(shell pkg-config --cflags simgrid) -o $@ $< \
		$(shell pkg-config --libs simgrid)

# `make fuzz FUZZ_SECONDS=N` (tests/fuzz/README.md): libFuzzer targets,
# built by clang (Debian's clang and its libFuzzer runtime) with address
# and undefined sanitizers, for the scenario loader, the cost-model
# loader, the trace importers, the Spark event-log reader and plot's CSV
# reader; each runs N seconds (default 60) from its committed seed corpus
# (tests/fuzz/corpus/TARGET, read only) and a working corpus of its own
# (build/fuzz/corpus-TARGET).  A crash, a breach of the error contract
# (one "file:line:col: message" line), a leak, a hang over 10 s or 2 GiB
# of memory fails it, the input left as build/fuzz/crash-TARGET-*.  CI
# runs a short pass (FUZZ_SECONDS=6).  A developer's check, never part of
# make check.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := scenario cost trace sparklog csv
FUZZ_BUILD   := build/fuzz
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS  := -O1 -g -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -pthread \
                -DHETSIM_VERSION='"$(VERSION)"' $(INCDIRS) -Itests/fuzz $(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(FUZZ_BUILD)/%.o) $(FUZZ_BUILD)/gen/default_model.o

$(FUZZ_BUILD)/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(PKG_CFLAGS) -MMD -MP -c $< -o $@

$(FUZZ_BUILD)/gen/default_model.o: $(BUILD)/gen/default_model.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_BUILD)/fuzz-%: $(FUZZ_BUILD)/tests/fuzz/fuzz_%.o $(FUZZ_BUILD)/tests/fuzz/fuzz.o $(FUZZ_LIB_OBJ) $(BUILD)/BLAS
	$(FUZZ_CC) -fsanitize=fuzzer $(FUZZ_SAN) -rdynamic -o $@ $(filter %.o,$^) $(PKG_LIBS) $(LDLIBS)

-include $(FUZZ_LIB_OBJ:.o=.d)
# (objects of a pattern chain, which make would otherwise delete)
.SECONDARY: $(FUZZ_LIB_OBJ) $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/tests/fuzz/fuzz_%.o) $(FUZZ_BUILD)/tests/fuzz/fuzz.o

.PHONY: fuzz fuzz-build
fuzz-build: deps
	@scripts/install-deps fuzz
	@command -v $(FUZZ_CC) >/dev/null 2>&1 || { echo "fuzz: $(FUZZ_CC) not found (apt-get install clang)"; exit 1; }
	@$(MAKE) --no-print-directory SAN=0 MPI=0 $(BUILD)/gen/default_model.c $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz-%)

fuzz: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_BUILD)/corpus-$$t; \
		echo "fuzz: $$t for $(FUZZ_SECONDS) s"; \
		ASAN_OPTIONS=detect_leaks=1 $(FUZZ_BUILD)/fuzz-$$t -max_total_time=$(FUZZ_SECONDS) \
			-timeout=10 -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1 \
			-artifact_prefix=$(FUZZ_BUILD)/crash-$$t- \
			$(FUZZ_BUILD)/corpus-$$t tests/fuzz/corpus/$$t 2> $(FUZZ_BUILD)/fuzz-$$t.log; \
		rc=$$?; grep -E '^#[0-9]+[[:space:]]+DONE' $(FUZZ_BUILD)/fuzz-$$t.log | tail -n 1; \
		if [ $$rc -ne 0 ]; then tail -n 40 $(FUZZ_BUILD)/fuzz-$$t.log; echo "fuzz: $$t FAILED (log: $(FUZZ_BUILD)/fuzz-$$t.log)"; exit 1; fi; \
	done; echo "fuzz: every target ran clean"
