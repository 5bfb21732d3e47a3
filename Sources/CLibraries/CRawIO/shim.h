// The few raw-device calls Swift cannot make itself: ioctl is variadic and
// its request numbers are macros (_IOC), so neither imports. Only the
// RawPrinters module includes this; no pointer from here leaves it.
#include <sys/ioctl.h>
#include <linux/ioctl.h>
#include <stddef.h>

/// usblp's request for the IEEE 1284 device ID: `_IOC(_IOC_READ, 'P', 1, len)`
/// (linux/drivers/usb/class/usblp.c, IOCNR_GET_DEVICE_ID). The buffer gets
/// the ID with its 2-byte length prefix. 0 on success, -1 and errno otherwise.
static inline int kp_lp_get_device_id(int fd, unsigned char *buffer, size_t length) {
    return ioctl(fd, _IOC(_IOC_READ, 'P', 1, length), buffer);
}

/// Makes further open(2)s of a terminal fail with EBUSY (root excepted)
/// until it is closed: two programs printing on one serial line interleave.
static inline int kp_tty_set_exclusive(int fd) {
    return ioctl(fd, TIOCEXCL);
}

/// 1 when the terminal is in exclusive mode, 0 when not, -1 and errno on error.
static inline int kp_tty_is_exclusive(int fd) {
    int exclusive = 0;
    if (ioctl(fd, TIOCGEXCL, &exclusive) != 0) return -1;
    return exclusive ? 1 : 0;
}

/// Bytes written to `fd` that have not yet left this machine's side of it:
/// a terminal's output queue (TIOCOUTQ), or a TCP socket's data not yet
/// acknowledged by the peer (SIOCOUTQ, the same request number). -1 and errno
/// (ENOTTY on usblp) when the descriptor cannot tell.
static inline int kp_output_queue(int fd) {
    int queued = 0;
    if (ioctl(fd, TIOCOUTQ, &queued) != 0) return -1;
    return queued;
}
