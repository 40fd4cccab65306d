// The kernel interfaces the event server uses that the C library module
// does not bring: evdev's ioctls, timerfd, inotify, signalfd and the frame buffer's ioctls.
// ioctl is variadic, which Swift cannot call, hence the small wrappers.
#include <linux/input.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>

static inline int openuikit_evdev_get_name(int fd, char *buffer, unsigned int size) {
    return ioctl(fd, EVIOCGNAME(size), buffer);
}

static inline int openuikit_evdev_get_bits(int fd, unsigned int type, unsigned char *buffer, unsigned int size) {
    return ioctl(fd, EVIOCGBIT(type, size), buffer);
}

static inline int openuikit_evdev_get_properties(int fd, unsigned char *buffer, unsigned int size) {
    return ioctl(fd, EVIOCGPROP(size), buffer);
}

static inline int openuikit_evdev_get_keys(int fd, unsigned char *buffer, unsigned int size) {
    return ioctl(fd, EVIOCGKEY(size), buffer);
}

static inline int openuikit_evdev_get_abs(int fd, unsigned int axis, struct input_absinfo *info) {
    return ioctl(fd, EVIOCGABS(axis), info);
}

/// values: the axis code first, then one value per slot (size in bytes).
static inline int openuikit_evdev_get_mt_slots(int fd, int *values, unsigned int size) {
    return ioctl(fd, EVIOCGMTSLOTS(size), values);
}

static inline int openuikit_evdev_set_clock(int fd, int clock) {
    return ioctl(fd, EVIOCSCLOCKID, &clock);
}

#include <linux/fb.h>

static inline int openuikit_fb_get_variable_info(int fd, struct fb_var_screeninfo *info) {
    return ioctl(fd, FBIOGET_VSCREENINFO, info);
}

static inline int openuikit_fb_get_fixed_info(int fd, struct fb_fix_screeninfo *info) {
    return ioctl(fd, FBIOGET_FSCREENINFO, info);
}
