# numacore: build → image → boot → test → report.
#
#   make deb [FLAVOUR=vm|distro|mainline]   kernel .debs (README command 1)
#   make check                            everything CI runs (README command 2)
#
# Every target is a thin call of a script in scripts/ or image/; run those
# with --help for their options.

FLAVOUR ?= vm
export FLAVOUR

.PHONY: all deb deps configure image lab check check-host check-sched-numa-off check-bisect clean distclean help

all: deb

help:
	@sed -n '3,6p' Makefile | sed 's/^# \{0,1\}//'
	@echo "Other targets: configure image lab check-host check-sched-numa-off check-bisect clean distclean"

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
	scripts/lab-run $(LAB_ARGS)

check-host:
	scripts/deps check
	scripts/check --host-only

check:
	scripts/check

# CONFIG_SCHED_NUMA=n: the mainline flavour builds, boots, shows none of the
# series' interfaces and balances as stock 6.1 (a second kernel build: not
# part of make check).
check-sched-numa-off:
	scripts/deps build
	scripts/deps lab
	scripts/build-deb --flavour mainline
	image/build --flavour mainline
	scripts/lab-run --image build/image/mainline --no-guest-tests \
		--append "sched_numa_policy=1" tests/mainline

# Every prefix of the series builds, numa/core on and off, without new
# compiler warnings (not part of make check: two builds of the objects the
# series touches for every patch).
check-bisect:
	scripts/deps build
	scripts/bisect-build

clean:
	rm -rf build/vm build/distro build/mainline build/debs build/image

distclean:
	rm -rf build results
