# shellcheck shell=bash
# Shared pieces of the numacore build and lab scripts.  Sourced, never run.
#
# Paths (all overridable from the environment):
#   NUMACORE_ROOT   the repository
#   BUILD_DIR       git-ignored work area: kernel trees, ccache, images
#   RESULTS_DIR     lab and benchmark results
#   LINUX_TARBALL   Debian's linux-source tarball

NUMACORE_ROOT=${NUMACORE_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
BUILD_DIR=${BUILD_DIR:-$NUMACORE_ROOT/build}
RESULTS_DIR=${RESULTS_DIR:-$NUMACORE_ROOT/results}
LINUX_TARBALL=${LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
LINUX_SOURCE_PKG=${LINUX_SOURCE_PKG:-linux-source-6.1}
# The flavours and what each is built from: config-fragments/flavours.
NUMACORE_FLAVOUR_TABLE=${NUMACORE_FLAVOUR_TABLE:-$NUMACORE_ROOT/config-fragments/flavours}

PROG=${PROG:-$(basename "$0")}

log() { printf '%s: %s\n' "$PROG" "$*" >&2; }

# die MESSAGE: one line naming the cause and the fix, then exit 1.
die() {
	printf '%s: error: %s\n' "$PROG" "$*" >&2
	exit 1
}

# step N TOTAL WHAT: announce a long step so a watcher knows how far along we are.
step() {
	printf '%s: [%s/%s] %s\n' "$PROG" "$1" "$2" "$3" >&2
}

# need_cmd CMD PACKAGE: fail naming the package that provides CMD.
need_cmd() {
	command -v "$1" >/dev/null 2>&1 ||
		die "'$1' not found; install it with: apt-get install $2"
}

# flavour_table: the table's flavour lines, fields trimmed and '|'-separated.
flavour_table() {
	[ -r "$NUMACORE_FLAVOUR_TABLE" ] ||
		die "the flavour table $NUMACORE_FLAVOUR_TABLE is missing (a checkout without config-fragments/?)"
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' -e '/^[[:space:]]*alias[[:space:]]/d' \
		-e 's/[[:space:]]*|[[:space:]]*/|/g' -e 's/^[[:space:]]*//; s/[[:space:]]*$//' \
		"$NUMACORE_FLAVOUR_TABLE"
}

# flavour_names: every flavour, in the table's order, on one line.
flavour_names() {
	flavour_table | cut -d'|' -f1 | tr '\n' ' ' | sed 's/ $//'
}

# flavour_field NAME FIELD: base, configs or fragments of a known flavour.
flavour_field() {
	local col
	case $2 in base) col=2 ;; configs) col=3 ;; fragments) col=4 ;; *) return 1 ;; esac
	flavour_table | awk -F'|' -v n="$1" -v c="$col" '$1 == n { print $c; found = 1 } END { exit !found }'
}

# flavour_resolve NAME: print the flavour NAME stands for (an alias gives
# its new name, with a note), or refuse a name the table does not have.
flavour_resolve() {
	local new
	new=$(sed -n "s/^[[:space:]]*alias[[:space:]][[:space:]]*$1[[:space:]][[:space:]]*\([^[:space:]]*\).*/\1/p" \
		"$NUMACORE_FLAVOUR_TABLE" | head -1)
	if [ -n "$new" ]; then
		log "note: flavour '$1' is now called '$new'; building '$new'"
		set -- "$new"
	fi
	flavour_field "$1" base >/dev/null 2>&1 ||
		die "unknown flavour '$1'; choose one of: $(flavour_names) (e.g. make deb FLAVOUR=vm)"
	echo "$1"
}

# flavour_option ARGS...: the one parser of --flavour NAME and
# --flavour=NAME, for every script's option loop: sets FLAVOUR (resolved)
# and FLAVOUR_SHIFT, the number of arguments it took.
# shellcheck disable=SC2034 # FLAVOUR_SHIFT is for the caller
flavour_option() {
	case $1 in
	--flavour=*) FLAVOUR=${1#*=} FLAVOUR_SHIFT=1 ;;
	--flavour) [ $# -ge 2 ] || die "--flavour needs a value; choose one of: $(flavour_names)"
		   FLAVOUR=$2 FLAVOUR_SHIFT=2 ;;
	*) die "flavour_option: not a --flavour option: $1" ;;
	esac
	FLAVOUR=$(flavour_resolve "$FLAVOUR") || exit 1
}

# flavour_base_files NAME TREE OUT: write NAME's base config to OUT (TREE's
# x86_64_defconfig, or Debian's amd64 config) and print, on one line, OUT and
# the tree's kernel/configs the table merges over it.
flavour_base_files() {
	local name=$1 tree=$2 outf=$3 base configs
	base=$(flavour_field "$name" base) || die "unknown flavour '$name'"
	case $base in
	x86_64_defconfig)
		kernel_make "$tree" -s x86_64_defconfig >/dev/null ||
			die "make x86_64_defconfig failed in $tree"
		cp "$tree/.config" "$outf"
		;;
	debian-amd64)
		local dc=/usr/src/linux-config-6.1/config.amd64_none_amd64.xz
		[ -r "$dc" ] || die "$dc missing; install it with: apt-get install linux-config-6.1"
		xzcat "$dc" > "$outf"
		;;
	*) die "flavour $name: unknown base '$base' in $NUMACORE_FLAVOUR_TABLE (x86_64_defconfig or debian-amd64)" ;;
	esac
	configs=$(flavour_config_paths "$name" configs "$tree/kernel/configs") || exit 1
	echo "$outf${configs:+ $configs}"
}

# flavour_fragment_files NAME: NAME's config-fragments, in merge order (a
# later one wins), on one line.
flavour_fragment_files() {
	flavour_config_paths "$1" fragments "$NUMACORE_ROOT/config-fragments"
}

# flavour_config_paths NAME FIELD DIR: DIR/X.config for each X in NAME's
# FIELD of the table (configs or fragments), in order, on one line; refuses
# one that is missing.
flavour_config_paths() {
	local x
	local -a files=()
	for x in $(flavour_field "$1" "$2"); do
		[ -r "$3/$x.config" ] ||
			die "flavour $1: $3/$x.config missing (see $NUMACORE_FLAVOUR_TABLE)"
		files+=("$3/$x.config")
	done
	echo "${files[*]}"
}

# check_flavour: resolve FLAVOUR (the environment, an option or the default) after
# the options are parsed, refusing an unknown one.
check_flavour() {
	FLAVOUR=$(flavour_resolve "${FLAVOUR:-vm}") || exit 1
}

# check_space DIR MIB: refuse to start a step that cannot finish.
check_space() {
	local avail
	mkdir -p "$1"
	avail=$(df -Pm "$1" | awk 'NR == 2 { print $4 }')
	[ "$avail" -ge "$2" ] ||
		die "only ${avail} MiB free under $1, this step needs ${2} MiB; free some space (e.g. make clean) and retry"
}

# tarball_kernelversion: VERSION.PATCHLEVEL.SUBLEVEL of the linux-source tarball.
tarball_kernelversion() {
	[ -r "$LINUX_TARBALL" ] ||
		die "$LINUX_TARBALL missing; install it with: apt-get install $LINUX_SOURCE_PKG"
	tar -xOJf "$LINUX_TARBALL" --occurrence=1 linux-source-6.1/Makefile 2>/dev/null |
		awk '/^VERSION =/ { v = $3 } /^PATCHLEVEL =/ { p = $3 } /^SUBLEVEL =/ { s = $3 }
		     END { if (v != "") print v "." p "." s }' || true
}

# linux_source_version: the Debian version of the installed linux-source package.
linux_source_version() {
	dpkg-query -W -f='${Version}' "$LINUX_SOURCE_PKG" 2>/dev/null ||
		die "$LINUX_SOURCE_PKG is not installed; install it with: apt-get install $LINUX_SOURCE_PKG"
}

# numacore_revision: our own release number, from debian/changelog.
numacore_revision() {
	dpkg-parsechangelog -l "$NUMACORE_ROOT/debian/changelog" -S Version
}

# package_version: the .deb version, sorting above the Debian source it came from.
package_version() {
	printf '%s+numacore%s\n' "$(linux_source_version)" "$(numacore_revision)"
}

# check_fragments CONFIG FRAGMENT...: print every fragment line that CONFIG
# lost.  As in merge_config.sh, the last fragment to name a symbol wins.
check_fragments() {
	local config=$1
	shift
	awk '
	FNR == NR { have[$0] = 1
		    if (match($0, /^CONFIG_[A-Za-z0-9_]+=/)) set[substr($0, 1, RLENGTH - 1)] = 1
		    next }
	/^CONFIG_[A-Za-z0-9_]+=/ { sym = substr($0, 1, index($0, "=") - 1) }
	/^# CONFIG_[A-Za-z0-9_]+ is not set$/ { sym = $2 }
	/^CONFIG_[A-Za-z0-9_]+=/ || /^# CONFIG_[A-Za-z0-9_]+ is not set$/ {
		if (!(sym in line)) order[++n] = sym
		line[sym] = $0; from[sym] = FILENAME
	}
	END {
		for (i = 1; i <= n; i++) {
			sym = order[i]; l = line[sym]
			if (l ~ /^CONFIG_/ ? !(l in have) : (sym in set))
				print from[sym] ": " l
		}
	}' "$config" "$@"
}

# series_patches: the patches of patches/series, in order.
series_patches() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$NUMACORE_ROOT/patches/series" | awk '{ print $1 }'
}

# kernel_make TREE ARGS...: make in a kernel tree, the same whoever calls it.
# dpkg-buildpackage exports userspace CFLAGS/LDFLAGS that tools/objtool
# would pick up (and relinking objtool rebuilds every object), and an outer
# make's MAKEFLAGS would leak "Entering directory" lines into captured
# output.  JOBS defaults to the number of CPUs; ccache caches compiles.
kernel_make() {
	local tree=$1
	shift
	env -u CFLAGS -u CPPFLAGS -u CXXFLAGS -u LDFLAGS -u ASFLAGS \
		-u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		make -C "$tree" --no-print-directory -j"${JOBS:-$(nproc)}" \
		CC="ccache gcc" HOSTCC="ccache gcc" "$@"
}

# in_chroot ROOT CMD...: run CMD in the root filesystem ROOT with /proc,
# /sys and /dev mounted in a private mount namespace, so that the mounts
# vanish with the command, even when it fails.
in_chroot() {
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare --mount --propagation private sh -ec '
		root=$1
		shift
		mount -t proc proc "$root/proc"
		mount --rbind /dev "$root/dev"
		mount -t sysfs sysfs "$root/sys"
		exec chroot "$root" "$@"' sh "$@"
}
