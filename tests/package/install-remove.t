#!/bin/bash
# The linux-image package installs and goes away as a Debian kernel package
# does, with apt in a clean bookworm root (the lab's cached base): postinst
# runs depmod, linux-update-symlinks and the /etc/kernel/postinst.d hooks
# (initramfs-tools), and purge runs the postrm.d hooks and leaves nothing.
# With a numacore-tools .deb, that one too: numahome and its manual page in
# it, installed with its dependencies, runnable, and gone after purge.
#
# Usage: tests/package/install-remove.t BASE.tar LINUX-IMAGE.deb [NUMACORE-TOOLS.deb]   (as root)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
# shellcheck source=../../scripts/lib.sh
. "$here/../../scripts/lib.sh"
base=${1:?usage: install-remove.t BASE.tar LINUX-IMAGE.deb}
deb=${2:?usage: install-remove.t BASE.tar LINUX-IMAGE.deb}
tools=${3:-}
pkg=$(dpkg-deb -f "$deb" Package)
rel=${pkg#linux-image-}
root=$(mktemp -d /var/tmp/numacore-pkgtest.XXXXXX)
trap 'rm -rf "$root"' EXIT

in_root() { in_chroot "$root" "$@"; }

nonempty() { for f; do [ -s "$f" ] || return 1; done; }
installed() { in_root dpkg-query -W -f="\${Status}" "$1" 2>/dev/null | grep -q 'ok installed'; }
not_installed() { ! installed "$1"; }

points=12
[ -z "$tools" ] || points=17
plan "$points"
tar -C "$root" -xf "$base"
cp "$deb" "$root/tmp/"
out=$(in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "/tmp/$(basename "$deb")" 2>&1)
check "apt install ./$(basename "$deb") succeeds" "$(tail -3 <<<"$out")" \
	installed "$pkg"
check "postinst.d hook: initramfs-tools made /boot/initrd.img-$rel" "missing" [ -s "$root/boot/initrd.img-$rel" ]
check "postinst: depmod wrote modules.dep" "missing" [ -s "$root/lib/modules/$rel/modules.dep" ]
check "postinst: /vmlinuz points at the new kernel" "$(readlink "$root/vmlinuz")" \
	[ "$(readlink "$root/vmlinuz")" = "boot/vmlinuz-$rel" ]
check "postinst: /initrd.img points at its initramfs" "$(readlink "$root/initrd.img")" \
	[ "$(readlink "$root/initrd.img")" = "boot/initrd.img-$rel" ]
check "the first-install marker is gone" "left behind" [ ! -e "$root/lib/modules/$rel/.fresh-install" ]
check "config, System.map and vmlinuz in /boot" "missing" \
	nonempty "$root/boot/config-$rel" "$root/boot/System.map-$rel" "$root/boot/vmlinuz-$rel"

out=$(in_root env DEBIAN_FRONTEND=noninteractive apt-get purge -y "$pkg" 2>&1)
check "apt purge $pkg succeeds" "$(tail -3 <<<"$out")" not_installed "$pkg"
check "postrm.d hook: the initramfs is removed" "still there" [ ! -e "$root/boot/initrd.img-$rel" ]
check "the kernel is removed from /boot" "still there" [ ! -e "$root/boot/vmlinuz-$rel" ]
check "/lib/modules/$rel is gone (depmod output too)" "left: $(find "$root/lib/modules/$rel" 2>/dev/null | tr '\n' ' ')" \
	[ ! -e "$root/lib/modules/$rel" ]
check "/vmlinuz no longer points at it" "$(readlink "$root/vmlinuz")" [ "$(readlink "$root/vmlinuz")" != "boot/vmlinuz-$rel" ]

if [ -n "$tools" ]; then
	# holds PATH...: the .deb's file list has every PATH.
	holds() {
		local list p
		list=$(dpkg-deb -c "$tools" 2>/dev/null | awk '{ print $6 }') || return 1
		for p; do grep -qx "\.$p" <<<"$list" || return 1; done
	}
	check "numacore-tools holds numahome, its gzipped manual page, copyright and changelog" \
		"$(dpkg-deb -c "$tools" 2>&1 | awk '{ print $6 }' | tr '\n' ' ')" \
		holds /usr/bin/numahome /usr/share/man/man8/numahome.8.gz \
		/usr/share/doc/numacore-tools/copyright /usr/share/doc/numacore-tools/changelog.gz
	cp "$tools" "$root/tmp/"
	out=$(in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "/tmp/$(basename "$tools")" 2>&1)
	check "apt install ./$(basename "$tools") succeeds" "$(tail -3 <<<"$out")" installed numacore-tools
	out=$(in_root numahome --help 2>&1)
	check "numahome --help runs in the root" "$out" grep -q '^Usage: numahome' <<<"$out"
	# The chroot runs on the host's kernel, numacore or not.
	out=$(in_root numahome -p 1 2>&1)
	check "numahome -p 1 prints a node or none, or says the kernel lacks the interface" "$out" \
		grep -qxE '[0-9]+|none|numahome: this kernel has no PR_GET_NUMA_HOME_NODE \(not a numacore kernel\?\)' <<<"$out"
	out=$(in_root env DEBIAN_FRONTEND=noninteractive apt-get purge -y numacore-tools 2>&1)
	tools_gone() {
		not_installed numacore-tools && [ ! -e "$root/usr/bin/numahome" ] &&
			[ ! -e "$root/usr/share/doc/numacore-tools" ]
	}
	check "apt purge numacore-tools removes numahome and its documentation" "$(tail -3 <<<"$out")" tools_gone
fi
done_testing
