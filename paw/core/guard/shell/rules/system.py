"""Whole-machine damage: filesystems, partition tables, power, mass kills."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from paw.core.guard.shell.commands import SimpleCommand
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check

_DISK_TOOLS = frozenset(
    {"mkfs", "mke2fs", "mkswap", "wipefs", "fdisk", "sfdisk", "cfdisk", "parted", "gdisk",
     "sgdisk", "blkdiscard", "mkntfs", "mkdosfs", "diskutil", "format", "zpool", "lvremove",
     "vgremove", "pvremove", "cryptsetup", "badblocks", "hdparm", "nvme"}
)  # fmt: skip
_POWER = frozenset({"shutdown", "reboot", "halt", "poweroff"})


def _check_disk(cmd: SimpleCommand, ctx: Context) -> None:
    if cmd.name in {"diskutil", "zpool", "nvme", "hdparm"} and not any(
        a in {"eraseDisk", "eraseVolume", "partitionDisk", "destroy", "format", "--security-erase"}
        or a.startswith("--security")
        for a in cmd.args
    ):
        return
    if cmd.name == "fdisk" and any(a == "-l" for a in cmd.args):
        return
    ctx.block("shell.disk-format", f"`{cmd.render()}` can erase a disk or partition table")


def _check_power(cmd: SimpleCommand, ctx: Context) -> None:
    ctx.block("shell.power", f"`{cmd.name}` stops the machine")


def _check_systemctl(cmd: SimpleCommand, ctx: Context) -> None:
    if any(a in {"poweroff", "reboot", "halt", "kexec", "suspend", "hibernate"} for a in cmd.args):
        ctx.block("shell.power", "`systemctl` stops the machine")


def _check_kill(cmd: SimpleCommand, ctx: Context) -> None:
    if "-1" in cmd.args[-1:] or (cmd.name == "pkill" and "-u" not in cmd.args and "." in cmd.args):
        ctx.block("shell.kill-all", f"`{cmd.render()}` kills every process you own")


def _check_mkfs_prefix(cmd: SimpleCommand, ctx: Context) -> None:
    _check_disk(cmd, ctx)


def disk_check(name: str) -> tuple[Check, ...] | None:
    """Rules for ``mkfs.ext4``-style names."""
    if name.startswith(("mkfs.", "mkfs_", "mke2fs", "mkswap")):
        return (_check_mkfs_prefix,)
    return None


RULES: dict[str, tuple[Check, ...]] = {
    **dict.fromkeys(_DISK_TOOLS, (_check_disk,)),
    **dict.fromkeys(_POWER, (_check_power,)),
    "systemctl": (_check_systemctl,),
    "init": (_check_power,),
    "kill": (_check_kill,),
    "pkill": (_check_kill,),
}
