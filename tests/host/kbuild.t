#!/bin/bash
# scripts/kbuild's checks without a kernel build: flavours, the tarball's
# version, package version ordering, the fragment-survival check, and quilt
# at fuzz 0 naming the patch and hunk that do not apply.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/../lib/tap.sh"
# shellcheck source=../../scripts/lib.sh
. "$root/scripts/lib.sh"
kbuild=$root/scripts/kbuild
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

plan $((21 + 2 * $(flavour_names | wc -w)))

out=$("$kbuild" --flavour bogus release 2>&1) && rc=0 || rc=$?
check "unknown flavour refused, naming the choices" "exit $rc: $out" \
	grep -q "unknown flavour 'bogus'; choose one of: vm distro sched-numa-off debug" <<<"$out"
out=$("$root/scripts/build-deb" --flavour bogus 2>&1) && rc=0 || rc=$?
check "build-deb refuses it too" "exit $rc: $out" grep -q "unknown flavour 'bogus'" <<<"$out"
# The flavour table (config-fragments/flavours): every flavour names a
# known base and fragments that exist; the old name still works.
for f in $(flavour_names); do
	b=$(flavour_field "$f" base)
	check "flavour $f: base '$b' is one kbuild makes" "unknown" \
		grep -qxE 'x86_64_defconfig|debian-amd64' <<<"$b"
	missing=
	for fr in $(flavour_field "$f" fragments); do
		[ -r "$root/config-fragments/$fr.config" ] || missing+=" $fr"
	done
	check "flavour $f: its fragments exist ($(flavour_field "$f" fragments))" "missing:$missing" [ -z "$missing" ]
done
out=$(FLAVOUR=mainline "$kbuild" tree 2>&1) && rc=0 || rc=$?
check "the old flavour name 'mainline' builds sched-numa-off, with a note" "exit $rc: $out" \
	grep -q "flavour 'mainline' is now called 'sched-numa-off'" <<<"$out"
out=$("$kbuild" --flavour 2>&1) && rc=0 || rc=$?
check "--flavour without a value names the choices" "exit $rc: $out" \
	grep -q "\-\-flavour needs a value; choose one of: vm" <<<"$out"

out=$(LINUX_TARBALL=$tmp/none.tar.xz "$kbuild" release 2>&1) && rc=0 || rc=$?
check "missing tarball: names the package to install" "exit $rc: $out" \
	grep -q "apt-get install linux-source-6.1" <<<"$out"

mkdir -p "$tmp/linux-source-6.1"
printf 'VERSION = 5\nPATCHLEVEL = 10\nSUBLEVEL = 3\nEXTRAVERSION =\n' > "$tmp/linux-source-6.1/Makefile"
tar -C "$tmp" -cJf "$tmp/old.tar.xz" linux-source-6.1
out=$(LINUX_TARBALL=$tmp/old.tar.xz "$kbuild" release 2>&1) && rc=0 || rc=$?
check "wrong-major tarball refused" "exit $rc: $out" grep -q "holds Linux '5.10.3', not 6.1.x" <<<"$out"

if [ -r "$LINUX_TARBALL" ] && dpkg-query -W linux-source-6.1 >/dev/null 2>&1; then
	rel=$("$kbuild" --flavour vm release)
	check "release is 6.1.N-numacore-vm ($rel)" "got $rel" grep -qE '^6\.1\.[0-9]+-numacore-vm$' <<<"$rel"
	rel=$("$kbuild" --flavour distro release)
	check "distro release is 6.1.N-numacore-distro" "got $rel" grep -qE '^6\.1\.[0-9]+-numacore-distro$' <<<"$rel"
	v=$("$kbuild" version) src=$(dpkg-query -W -f='${Version}' linux-source-6.1)
	check "package version $v sorts above linux-source-6.1 $src" "does not" dpkg --compare-versions "$v" gt "$src"
	check "and below the next Debian upload" "does not" dpkg --compare-versions "$v" lt "${src}.1"
else
	for t in release distro-release version next; do skip "$t" "linux-source-6.1 not installed"; done
fi

printf 'CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C=m\nCONFIG_E="x"\n' > "$tmp/config"
printf 'CONFIG_A=y\nCONFIG_B=y\n# CONFIG_C is not set\nCONFIG_D=y\nCONFIG_E="x"\n' > "$tmp/f1"
printf '# CONFIG_B is not set\n# CONFIG_F is not set\n' > "$tmp/f2"
lost=$(check_fragments "$tmp/config" "$tmp/f1" "$tmp/f2")
check "fragment check: lists a =m that should be off" "got: $lost" grep -qx "$tmp/f1: # CONFIG_C is not set" <<<"$lost"
check "fragment check: lists a =y that vanished" "got: $lost" grep -qx "$tmp/f1: CONFIG_D=y" <<<"$lost"
check "fragment check: the last fragment wins, kept lines pass" "got: $lost" [ "$(wc -l <<<"$lost")" -eq 2 ]

# quilt at fuzz 0 in a fake root and tree
fake=$tmp/root
mkdir -p "$fake/patches" "$fake/debian" "$fake/config-fragments" "$tmp/build/vm/linux-source-6.1"
cp "$root/config-fragments/flavours" "$fake/config-fragments/"
cp "$root/debian/changelog" "$fake/debian/"
printf 'one\ntwo\nthree\nfour\n' > "$tmp/build/vm/linux-source-6.1/file"
cat > "$fake/patches/0001-good.patch" <<'P'
--- a/file
+++ b/file
@@ -1,4 +1,4 @@
 one
-two
+TWO
 three
 four
P
cat > "$fake/patches/0002-bad.patch" <<'P'
--- a/file
+++ b/file
@@ -1,4 +1,4 @@
 one
 TWO
-drei
+THREE
 four
P
printf '0001-good.patch\n' > "$fake/patches/series"
out=$(NUMACORE_ROOT=$fake BUILD_DIR=$tmp/build "$kbuild" --flavour vm patch 2>&1) && rc=0 || rc=$?
check "a patch that applies is applied" "exit $rc: $out" grep -qx TWO "$tmp/build/vm/linux-source-6.1/file"
out=$(NUMACORE_ROOT=$fake BUILD_DIR=$tmp/build "$kbuild" --flavour vm patch 2>&1) && rc=0 || rc=$?
check "an unchanged series is not re-applied" "exit $rc: $out" grep -q "series already applied" <<<"$out"
sed -i 's/^+TWO$/+Two/' "$fake/patches/0001-good.patch"
out=$(NUMACORE_ROOT=$fake BUILD_DIR=$tmp/build "$kbuild" --flavour vm patch 2>&1) && rc=0 || rc=$?
check "an edited patch replaces its old version in the tree" "exit $rc: $out" \
	grep -qx Two "$tmp/build/vm/linux-source-6.1/file"
sed -i 's/^+Two$/+TWO/' "$fake/patches/0001-good.patch"
NUMACORE_ROOT=$fake BUILD_DIR=$tmp/build "$kbuild" --flavour vm patch >/dev/null 2>&1
# A new changelog re-applies the series but leaves the file's timestamp
# alone (its content is the same), so nothing is rebuilt; a new content
# gets a new timestamp.
touch -d '2020-01-01 00:00' "$tmp/build/vm/linux-source-6.1/file"
sed -i '1i A new changelog.\n---' "$fake/patches/0001-good.patch"
out=$(NUMACORE_ROOT=$fake BUILD_DIR=$tmp/build "$kbuild" --flavour vm patch 2>&1) && rc=0 || rc=$?
m=$(stat -c %Y "$tmp/build/vm/linux-source-6.1/file")
check "a changelog-only change re-applies the series but keeps the timestamp" \
	"exit $rc, mtime $m: $out" [ "$rc/$m" = "0/$(date -d '2020-01-01 00:00' +%s)" ]
sed -i 's/^+TWO$/+Two/' "$fake/patches/0001-good.patch"
NUMACORE_ROOT=$fake BUILD_DIR=$tmp/build "$kbuild" --flavour vm patch >/dev/null 2>&1
m=$(stat -c %Y "$tmp/build/vm/linux-source-6.1/file")
check "a content change gets a new timestamp" "mtime $m" [ "$m" != "$(date -d '2020-01-01 00:00' +%s)" ]
sed -i 's/^+Two$/+TWO/' "$fake/patches/0001-good.patch"
NUMACORE_ROOT=$fake BUILD_DIR=$tmp/build "$kbuild" --flavour vm patch >/dev/null 2>&1
printf '0001-good.patch\n0002-bad.patch\n' > "$fake/patches/series"
out=$(NUMACORE_ROOT=$fake BUILD_DIR=$tmp/build "$kbuild" --flavour vm patch 2>&1) && rc=0 || rc=$?
check "a patch that does not apply fails the step" "exit $rc" [ "$rc" -ne 0 ]
check "naming the patch" "said: $out" grep -q "patch 0002-bad.patch does not apply" <<<"$out"
check "and the hunk" "said: $out" grep -q "Hunk #1 FAILED" <<<"$out"
done_testing
