# hetsim - build, test, run.  See README.md.
#
#   make run          install missing deps, build, run the default paper scenario
#   make check        install missing deps, build, run the CUnit tests
#   make check SAN=1  the same with address + undefined sanitizers
#   make clean

CC      ?= cc
PKGS    := gsl yaml-0.1 cunit
VERSION := 0.1.0

CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L \
           -DHETSIM_VERSION='"$(VERSION)"' -I. -Isim -Ipolicies -Iworkloads -Icli
LDLIBS  += -lm

ifeq ($(SAN),1)
  CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer \
             -fno-sanitize-recover=undefined -DSIM_CHECK_EVERY_EVENT=1
  LDFLAGS += -fsanitize=address,undefined
  BUILD   := build/san
else
  BUILD   := build/opt
endif

# pkg-config is asked only when a target needs the libraries, so that
# `make clean` works on a machine where nothing is installed yet.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)

LIB_SRC  := $(wildcard sim/*.c policies/*.c workloads/*.c) $(filter-out cli/main.c,$(wildcard cli/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
TEST_SRC := $(wildcard tests/*.c)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)

BIN      := bin/hetsim$(if $(filter 1,$(SAN)),-san,)
TESTBIN  := $(BUILD)/hetsim-tests

.PHONY: all run check test clean deps
all: $(BIN)

deps:
	@scripts/install-deps

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -MMD -MP -c $< -o $@

$(BIN): $(LIB_OBJ) $(BUILD)/cli/main.o
	@mkdir -p bin
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

$(TESTBIN): $(LIB_OBJ) $(TEST_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

# `make run`: the default paper scenario, stock Spark against label-dual.
run: deps
	@$(MAKE) --no-print-directory $(BIN)
	./$(BIN) run scenarios/paper-mixed.yaml --policy spark-standalone --policy label-dual

check: deps
	@$(MAKE) --no-print-directory $(BIN) $(TESTBIN)
	./$(TESTBIN)

test: check

clean:
	rm -rf build bin

-include $(LIB_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(BUILD)/cli/main.d
