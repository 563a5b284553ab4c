# numacore: build → image → boot → test → report.
#
#   make deb [FLAVOUR=vm|distro|...]      kernel .debs (README command 1)
#   make check                            everything CI runs (README command 2)
#
# Every target is a thin call of a script in scripts/, image/ or lab/; run those
# with --help for their options.

FLAVOUR ?= vm
export FLAVOUR
# Every flavour of config-fragments/flavours (their trees go with make clean).
FLAVOURS := $(shell sed -e 's/\#.*//' -e '/^[[:space:]]*alias/d' -e '/^[[:space:]]*$$/d' config-fragments/flavours | cut -d'|' -f1)

.PHONY: all deb deps configure image lab check check-host check-sched-numa-off check-bisect check-configs \
	stress check-debug bench check-bench-host clean distclean help

all: deb

help:
	@sed -n '3,6p' Makefile | sed 's/^# \{0,1\}//'
	@echo "Other targets: configure image lab check-host check-sched-numa-off check-bisect check-configs"
	@echo "               stress check-debug bench check-bench-host clean distclean"
	@echo "check-bench-host: scripts/bench --host --quick in a 2x2 lab guest from a checkout of"
	@echo "               the working tree, its report and refusals checked (8 min; not in make check)"

deps:
	scripts/deps build

# Unpack, patch and configure only: checks that the series applies and the
# fragments survive olddefconfig, in seconds (CI does this for distro).
configure: deps
	scripts/kbuild --flavour $(FLAVOUR) control unpack patch configure

deb: deps
	scripts/build-deb --flavour $(FLAVOUR)

image:
	scripts/deps lab
	image/build --flavour $(FLAVOUR)

# Boot the newest image and run the guest tests; LAB_ARGS passes options
# (make lab LAB_ARGS="--nodes 4").
lab:
	scripts/deps lab
	lab/lab-run $(LAB_ARGS)

check-host:
	scripts/deps check
	scripts/check --host-only

check:
	scripts/check

# CONFIG_SCHED_NUMA=n: the sched-numa-off flavour builds, boots, shows none
# of the series' interfaces and balances as stock 6.1 (a second kernel
# build: not part of make check).
check-sched-numa-off:
	scripts/deps build
	scripts/deps lab
	scripts/build-deb --flavour sched-numa-off
	image/build --flavour sched-numa-off
	lab/lab-run --image build/image/sched-numa-off --no-guest-tests \
		--append "sched_numa_policy=1" tests/sched-numa-off

# Every prefix of the series builds, numa/core on and off, without new
# compiler warnings (not part of make check: two builds of the objects the
# series touches for every patch).
check-bisect:
	scripts/deps build
	scripts/bisect-build $(if $(FROM),--from $(FROM))

# The whole series in every configuration it must build in: the vm config,
# CONFIG_SYSCTL=n, CONFIG_NUMA_BALANCING=n, CONFIG_SCHED_NUMA=n and Debian's
# amd64 config, each without a compiler warning the unpatched tree does not
# give (not part of make check: ten builds of the objects the series
# touches).  CONFIGS picks some: make check-configs CONFIGS="sysctl-off".
check-configs:
	scripts/deps build
	scripts/config-build $(CONFIGS)

# The stress tests (tests/stress/), each STRESS_SECONDS long, numa/core on
# with frequent scanning: on 2 nodes x 2 CPUs, then on 3 nodes of which one
# has memory and no CPUs.  make check runs them for 10 s each, in its 3-node boot.
STRESS_SECONDS ?= 120
STRESS_TIMEOUT = $$(( 6 * $(STRESS_SECONDS) + 1200 ))
stress:
	scripts/deps lab
	lab/lab-run --image build/image/$(FLAVOUR) --no-guest-tests \
		--timeout $(STRESS_TIMEOUT) --env STRESS_SECONDS=$(STRESS_SECONDS) tests/stress
	lab/lab-run --image build/image/$(FLAVOUR) --no-guest-tests \
		--nodes 3 --cpus-per-node 2 --mem-per-node 1G --cpuless-nodes 1 --distance 31 \
		--timeout $(STRESS_TIMEOUT) --env STRESS_SECONDS=$(STRESS_SECONDS) tests/stress

# The debug flavour (lockdep, KASAN, UBSAN, DEBUG_VM, DEBUG_LIST, debug
# objects, hung-task and soft-lockup detectors; config-fragments/debug.config)
# through the guest suite and the stress tests: lab-run fails on any kernel
# report.  A kernel build of its own: not part of make check.
check-debug:
	scripts/deps build
	scripts/deps lab
	scripts/build-deb --flavour debug
	image/build --flavour debug
	lab/lab-run --image build/image/debug --timeout $$(( 4 * $(STRESS_TIMEOUT) + 3600 )) \
		--test-timeout 3600 --env STRESS_SECONDS=$(STRESS_SECONDS) tests/stress

# The policies side by side in one boot (off, mainline, numacore, bind),
# report and plots in results/DATE-COMMIT/; BENCH_ARGS passes options
# (make bench BENCH_ARGS="--quick", "--host", "--nodes 4 ...").
bench:
	scripts/deps lab
	scripts/deps check
	scripts/bench $(BENCH_ARGS)

# The tester's path: scripts/bench --host --quick run in a lab guest (2 nodes
# x 2 CPUs) from a checkout of the working tree, as a tester runs it on a NUMA
# machine; tests/bench-host/ checks the report and --host's refusals.  Not
# part of make check (8 min under TCG).
check-bench-host:
	scripts/deps lab
	scripts/check-bench-host $(LAB_ARGS)

clean:
	rm -rf $(addprefix build/,$(strip $(FLAVOURS))) build/mainline build/debs build/image \
		build/bisect build/configs build/edit
	$(MAKE) -s -C tools/numahome clean

distclean:
	rm -rf build results
