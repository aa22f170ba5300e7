# cgtorture -- GNU Make. Three builds, each in its own folder:
#   build/plain (gcc -O2), build/tsan (clang, ThreadSanitizer), build/asan (clang, ASan+UBSan).
# Targets: all (./cgtorture), tsan, asan, check (the fast tier), test, stress, bench, fuzz,
# mutants, install and uninstall (PREFIX=/usr/local), clean.

BUILDS   := plain tsan asan
CC_plain := gcc
CC_tsan  := clang
CC_asan  := clang
CFLAGS_plain := -O2 -g
CFLAGS_tsan  := -O1 -g -fsanitize=thread
CFLAGS_asan  := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
		-fno-sanitize-recover=undefined

CFLAGS  ?=
CFLAGS  += -std=gnu11 -Wall -Wextra -pthread -MMD -MP
LDLIBS  := -ljansson -lurcu-memb -lurcu-cds -lurcu-common -lm -lpthread

# The layers of src/, bottom-up: a layer calls only those below it (make check-layers).
#   base     compiler helpers, prng, the one clock, files, the build's name
#   core     marked points, coverage, the thread registry, the failure list, RCU glue, sync hooks
#   locks    the lock variants (ops tables) and the acquire/release path
#   sched    controlled schedules: the baton, schedulers, model locks and RCU under it
#   model    the kernel model and its bug switches
#   klog     a kernel's own log: its records, mapped onto the model, judged against a failure
#   detect   the detectors, one file each, in one table
#   run      free-running and controlled runs: actors, operations, the point hook
#   report   report.json writer and reader, summary, story, exit policy
#   search   runs in child processes: explore, replay, shrink, determinism
#   compare  lock variants side by side
#   cli      the command line
LAYERS := base core locks sched model klog detect run report search compare cli

LIB_SRCS   := $(filter-out src/cli/main.c,$(foreach l,$(LAYERS),$(wildcard src/$(l)/*.c)))
TEST_SRCS  := $(wildcard tests/unit/test_*.c)
BENCH_SRCS := $(wildcard bench/*.c)

# The TSan build carries tsan-suppressions and its options inside (src/detect/tsan.c);
# this says the same for anyone reading the make output.
export TSAN_OPTIONS ?= suppressions=$(CURDIR)/tsan-suppressions
export ASAN_OPTIONS ?= detect_leaks=1 abort_on_error=0
export UBSAN_OPTIONS ?= print_stacktrace=1 halt_on_error=1

# tsan-suppressions as a C string, linked into the TSan build
EXTRA_OBJS_tsan := build/tsan/gen/tsan_suppressions.o

.PHONY: all plain tsan asan check test unit stress bench bench-detect bench-sched clean deps check-layers \
	kernel-check install uninstall
all: cgtorture

deps:
	@scripts/deps.sh

define build_rules
build/$(1)/%.o: %.c | deps
	@mkdir -p $$(@D)
	$$(CC_$(1)) $$(CFLAGS) $$(CFLAGS_$(1)) -c $$< -o $$@

build/$(1)/libcgtorture.a: $$(patsubst %.c,build/$(1)/%.o,$$(LIB_SRCS)) $$(EXTRA_OBJS_$(1))
	@rm -f $$@
	ar rcs $$@ $$^

build/$(1)/src/cli/main.o: build/gen/version.h
build/$(1)/src/cli/main.o: CFLAGS += -Ibuild/gen

build/$(1)/cgtorture: build/$(1)/src/cli/main.o build/$(1)/libcgtorture.a
	$$(CC_$(1)) $$(CFLAGS) $$(CFLAGS_$(1)) -o $$@ $$^ $$(LDLIBS)

build/$(1)/tests/unit/%: build/$(1)/tests/unit/%.o build/$(1)/libcgtorture.a
	$$(CC_$(1)) $$(CFLAGS) $$(CFLAGS_$(1)) -o $$@ $$^ -lcriterion $$(LDLIBS)

build/$(1)/bench/%: build/$(1)/bench/%.o build/$(1)/libcgtorture.a
	$$(CC_$(1)) $$(CFLAGS) $$(CFLAGS_$(1)) -o $$@ $$^ $$(LDLIBS)

-include $$(wildcard build/$(1)/*/*/*.d build/$(1)/*/*.d)
endef
$(foreach b,$(BUILDS),$(eval $(call build_rules,$(b))))

build/tsan/gen/tsan_suppressions.c: tsan-suppressions
	@mkdir -p $(@D)
	{ echo 'const char cgt_tsan_suppressions[] ='; \
	  grep -v '^[[:space:]]*\(#\|$$\)' $< | sed 's/.*/\t"&\\n"/'; echo '\t"";'; } > $@
build/tsan/gen/tsan_suppressions.o: build/tsan/gen/tsan_suppressions.c
	$(CC_tsan) $(CFLAGS) $(CFLAGS_tsan) -c $< -o $@

.SECONDARY:

# What --version prints: git describe of the tree built; the header is rewritten only when
# that changes, so a build with nothing new rebuilds nothing.
build/gen/version.h: FORCE
	@mkdir -p $(@D)
	@v=$$(git describe --always --dirty 2>/dev/null || echo unknown); \
	printf '#define CGT_VERSION "%s"\n' "$$v" >$@.new; \
	if cmp -s $@.new $@; then rm -f $@.new; else mv $@.new $@; fi
.PHONY: FORCE
FORCE:

cgtorture: build/plain/cgtorture
	cp $< $@

# The manual page and bash's completion, written by the plain binary from its own tables of
# options (src/cli/manual.c, src/cli/completion.c), and installed with it under PREFIX
# (DESTDIR for a staged install): the page where man looks, the completion where the
# bash-completion package loads it from when cgtorture is first completed.
PREFIX ?= /usr/local
bindir  := $(DESTDIR)$(PREFIX)/bin
man1dir := $(DESTDIR)$(PREFIX)/share/man/man1
compdir := $(DESTDIR)$(PREFIX)/share/bash-completion/completions

build/plain/cgtorture.1: build/plain/cgtorture
	$< help --man >$@.tmp && mv $@.tmp $@
build/plain/cgtorture.bash: build/plain/cgtorture
	$< help --completion bash >$@.tmp && mv $@.tmp $@

install: build/plain/cgtorture build/plain/cgtorture.1 build/plain/cgtorture.bash
	install -D -m 755 build/plain/cgtorture $(bindir)/cgtorture
	install -D -m 644 build/plain/cgtorture.1 $(man1dir)/cgtorture.1
	install -D -m 644 build/plain/cgtorture.bash $(compdir)/cgtorture
uninstall:
	rm -f $(bindir)/cgtorture $(man1dir)/cgtorture.1 $(compdir)/cgtorture

plain: build/plain/cgtorture
tsan: build/tsan/cgtorture
asan: build/asan/cgtorture

# Unit tests run under ASan+UBSan (Criterion cannot run under TSan: its issue #274); the TSan
# checks run the cgtorture binary itself, from tests/e2e/variants.sh.
UNIT_TESTS := $(patsubst tests/unit/%.c,build/asan/tests/unit/%,$(TEST_SRCS))

# test_locks runs one test at a time: with two at once, Criterion's own runner process
# (criterion_run_all_tests, not a test) now and then leaks 48 bytes as the policy tests'
# threads end, and LeakSanitizer fails the binary for it.
unit: $(UNIT_TESTS)
	@set -e; for t in $(UNIT_TESTS); do echo "== $$t"; \
		case $$t in */test_locks) j=1 ;; *) j=2 ;; esac; $$t --jobs $$j --short-filename; done

# Read the plain build's objects: a call from a lower layer to a higher one fails, and so do
# two files of one folder that call each other round (tests/e2e/layers.sh, in make test, shows it
# refusing each).
check-layers: build/plain/cgtorture
	scripts/check-layers build/plain $(LAYERS)

# The running kernel beside the model (tests/kernel/): kcheck watches this machine's kernel,
# model_check runs the model on the same scenarios; check.sh prints the two side by side.
build/plain/kernel/kcheck: tests/kernel/kcheck.c tests/kernel/row.h | deps
	@mkdir -p $(@D)
	$(CC_plain) $(CFLAGS) $(CFLAGS_plain) $< -o $@

build/plain/kernel/model_check: tests/kernel/model_check.c tests/kernel/row.h build/plain/libcgtorture.a
	@mkdir -p $(@D)
	$(CC_plain) $(CFLAGS) $(CFLAGS_plain) $< build/plain/libcgtorture.a -o $@ $(LDLIBS)

kernel-check: build/plain/kernel/kcheck build/plain/kernel/model_check
	tests/kernel/check.sh build/plain/kernel

# The fast tier, first in .ci/run (a few minutes on 2 cores): the plain and ASan builds, the
# unit tests, the layers, the command line, the mutants' patches still applying, and every
# real report's mapping (searching nothing). make test runs it again among its steps.
CHECK_STEPS = \
	unit		'$(MAKE) --no-print-directory unit' \
	layers		'tests/e2e/layers.sh build/plain $(LAYERS)' \
	mutants-apply	'tests/mutants/applies' \
	cli		'tests/e2e/cli.sh build' \
	report-maps	'MAP_ONLY=1 tests/e2e/reports.sh build'

check: $(UNIT_TESTS) build/plain/cgtorture build/asan/cgtorture
	@scripts/steps check $(CHECK_STEPS)

# Every step runs, a failing one too; a table of each step's status and time comes last.
TEST_STEPS = \
	kernel-check	'tests/kernel/check.sh build/plain/kernel' \
	variants	'tests/e2e/variants.sh build' \
	eras		'tests/e2e/eras.sh build' \
	bugs		'tests/e2e/bugs.sh build' \
	reports		'tests/e2e/reports.sh build' \
	crash		'tests/e2e/crash.sh build' \
	sched		'tests/e2e/sched.sh build' \
	seeing		'tests/e2e/seeing.sh build' \
	compare		'tests/e2e/compare.sh build' \
	install		'tests/e2e/install.sh' \
	docs		'tests/e2e/docs.sh build' \
	nightly-plan	'python3 tests/tools/test_nightly_plan.py' \
	nightly		'tests/e2e/nightly.sh build' \
	nightly-ssh	'tests/e2e/nightly_ssh.sh build' \
	soak		'RUNS=10 DURATION=2 SCHEDULES=100 SOAK_BIG=0 tests/e2e/soak build $$(mktemp -d)'

TEST_DEPS = $(UNIT_TESTS) build/plain/cgtorture build/tsan/cgtorture build/asan/cgtorture \
	    build/plain/kernel/kcheck build/plain/kernel/model_check

test: $(TEST_DEPS)
	@scripts/steps test $(CHECK_STEPS) $(TEST_STEPS)

# One step alone, by its name in the table: make test-sched, make test-cli, ...
test-%: $(TEST_DEPS)
	@STEP=$* scripts/steps test-$* $(CHECK_STEPS) $(TEST_STEPS)

stress: cgtorture
	./cgtorture run

bench: build/plain/bench/bench_scale build/tsan/bench/bench_scale build/plain/cgtorture
	build/plain/bench/bench_scale
	build/tsan/bench/bench_scale --threads 4000
	bench/population.sh build/plain/cgtorture

# The false-alarm soak: SOAK_RUNS free-running runs of SOAK_DURATION seconds, each drawn from
# its index over the correct configurations the binary lists (era, lock, build, swarm,
# threads), SOAK_BIG=1 adding 3 plain runs at 30,000 threads, and SOAK_SCHEDULES controlled
# schedules turning scheduler, build and era, beside two CPU burners (about 45 minutes at the
# defaults); the table goes to results/soak-<stamp>/soak.txt.
.PHONY: soak
soak: build/plain/cgtorture build/tsan/cgtorture build/asan/cgtorture
	RUNS=$(or $(SOAK_RUNS),300) DURATION=$(or $(SOAK_DURATION),4) \
		SCHEDULES=$(or $(SOAK_SCHEDULES),1000) SOAK_BIG=$(or $(SOAK_BIG),0) \
		tests/e2e/soak build results/soak-$$(date +%Y%m%d-%H%M%S)

# Each catalogued bug over SEEDS seeds with a BUDGET-second run each: detection rate and time,
# with and without perturbation, and the fixed twin's reports (long: up to an hour).
SEEDS ?= 20
BUDGET ?= 10
bench-detect: build/plain/cgtorture build/tsan/cgtorture build/asan/cgtorture
	bench/detect.sh build $(SEEDS) $(BUDGET)

# Controlled schedules: schedules explore needs per bug (random, PCT d=1..3), replay
# fidelity, shrinking: SEEDS seeds, at most RUNS schedules each, REPLAYS replays; then
# reproduce: a free-running report of each bug in, the schedules to an exact replay out.
RUNS ?= 50
REPLAYS ?= 100
bench-sched: build/plain/cgtorture build/tsan/cgtorture build/asan/cgtorture
	bench/sched.sh build $(SEEDS) $(RUNS) $(REPLAYS)
	bench/reproduce.sh build 200

# Counterexamples cut down: each catalogued bug found by explore, then shrunk at its defaults
# (found at -> shrunk to, trials, seconds, exact replays of the result), and the fewest
# preemptions the bounded scheduler finds it with.
.PHONY: bench-shrink
bench-shrink: build/plain/cgtorture build/tsan/cgtorture build/asan/cgtorture
	bench/shrink.sh build 200 100

# The corpus of real kernel reports (tests/reports/): each reproduced with its default budget,
# a table of kind, kernel, frames mapped, verdict, detector, schedules and seconds.
.PHONY: bench-reports
bench-reports: build/plain/cgtorture build/tsan/cgtorture build/asan/cgtorture
	bench/reports.sh build/plain/cgtorture

# The nightly matrix (stress/README.md): every correct variant, every bug and its fixed twin,
# each under its build, within a time budget: make nightly NIGHTLY_ARGS='--budget 30m'
.PHONY: nightly
NIGHTLY_ARGS ?=
nightly: build/plain/cgtorture build/tsan/cgtorture build/asan/cgtorture
	stress/nightly $(NIGHTLY_ARGS)

# Mutation testing (tests/mutants/): each patch (MUTANTS, a glob over their names) applied to
# a scratch copy of the tree, built three ways there, and run through one fixed check set for
# seeds 1..SEEDS (1 here) of DURATION (8) seconds; the table goes to results/mutants-<stamp>.txt.
.PHONY: mutants
MUTANTS ?= *
DURATION ?= 8
mutants: SEEDS = 1
mutants:
	MUTANTS='$(MUTANTS)' SEEDS=$(SEEDS) DURATION=$(DURATION) tests/mutants/run results

# libFuzzer on the report.json reader (tests/fuzz/), from its own sources only (and the
# schedulers with their registry, every file of src/sched/ but the baton and what hangs on
# it: the names a schedule may give), for FUZZ_SECONDS on build/fuzz/corpus: the seeds
# copied in, plus what earlier runs found. The dictionary stands in for coverage of
# jansson, which is not instrumented. A crash, leak or UB report leaves its input in
# build/fuzz/ and fails the target.
.PHONY: fuzz
FUZZ_SECONDS ?= 60
FUZZ_SRCS := tests/fuzz/fuzz_report.c src/report/report_read.c src/base/registry.c \
	     $(filter-out src/sched/sched.c src/sched/coop_lock.c src/sched/intercept.c,\
			  $(wildcard src/sched/*.c))
build/fuzz/fuzz_report: $(FUZZ_SRCS) src/report/report_read.h src/sched/schedule.h \
			src/sched/sched.h src/core/failure.h | deps
	@mkdir -p $(@D)
	clang -std=gnu11 -Wall -Wextra -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -g -O1 -o $@ $(FUZZ_SRCS) -ljansson -lm
# The kernel-log reader and its registry, on the same terms, seeded from the corpus of real
# reports (tests/reports/).
KLOG_FUZZ_SRCS := tests/fuzz/fuzz_klog.c src/klog/klog.c src/klog/kmap.c src/model/bugs.c \
		  src/base/registry.c
build/fuzz/fuzz_klog: $(KLOG_FUZZ_SRCS) src/klog/klog.h src/klog/kmap.h \
		      src/model/bugs.h src/core/failure.h | deps
	@mkdir -p $(@D)
	clang -std=gnu11 -Wall -Wextra -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -g -O1 -o $@ $(KLOG_FUZZ_SRCS)
fuzz: build/fuzz/fuzz_report build/fuzz/fuzz_klog
	@mkdir -p build/fuzz/corpus build/fuzz/klog_corpus
	cp tests/fuzz/corpus/*.json build/fuzz/corpus/
	cp tests/reports/*.log build/fuzz/klog_corpus/
	cp tests/fuzz/klog/*.log build/fuzz/klog_corpus/
	build/fuzz/fuzz_report -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
		-dict=tests/fuzz/report.dict -artifact_prefix=build/fuzz/ build/fuzz/corpus
	build/fuzz/fuzz_klog -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
		-max_len=65536 -artifact_prefix=build/fuzz/klog- build/fuzz/klog_corpus

clean:
	rm -rf build cgtorture
