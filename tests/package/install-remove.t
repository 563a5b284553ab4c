#!/bin/bash
# The linux-image package installs and goes away as a Debian kernel package
# does, with apt in a clean bookworm root (the lab's cached base): postinst
# runs depmod, linux-update-symlinks and the /etc/kernel/postinst.d hooks
# (initramfs-tools), and purge runs the postrm.d hooks and leaves nothing.
#
# Usage: tests/package/install-remove.t BASE.tar LINUX-IMAGE.deb   (as root)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
# shellcheck source=../../scripts/lib.sh
. "$here/../../scripts/lib.sh"
base=${1:?usage: install-remove.t BASE.tar LINUX-IMAGE.deb}
deb=${2:?usage: install-remove.t BASE.tar LINUX-IMAGE.deb}
pkg=$(dpkg-deb -f "$deb" Package)
rel=${pkg#linux-image-}
root=$(mktemp -d /var/tmp/numacore-pkgtest.XXXXXX)
trap 'rm -rf "$root"' EXIT

in_root() { in_chroot "$root" "$@"; }

nonempty() { for f; do [ -s "$f" ] || return 1; done; }
installed() { in_root dpkg-query -W -f="\${Status}" "$1" 2>/dev/null | grep -q 'ok installed'; }
not_installed() { ! installed "$1"; }

plan 12
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
done_testing
