// Shared memory between an application and the event server: memfd
// buffers, their seals, and descriptors passed over a Unix-domain socket;
// and the application's wait on that socket, to the nanosecond.
// Swift's C library module has neither memfd_create nor the seal
// constants, and the CMSG macros are macros: hence these small wrappers.
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef MFD_CLOEXEC
#define MFD_CLOEXEC 0x0001U
#define MFD_ALLOW_SEALING 0x0002U
#endif
#ifndef F_ADD_SEALS
#define F_ADD_SEALS 1033
#define F_GET_SEALS 1034
#define F_SEAL_SEAL 0x0001
#define F_SEAL_SHRINK 0x0002
#endif

/// A new anonymous file that can be sealed, closed on exec; -1 and errno on failure.
static inline int openuikit_memfd_create(const char *name) {
    return (int)syscall(SYS_memfd_create, name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}

/// accept(2) with the new descriptor closed on exec from the start (accept4
/// is a GNU extension the C library module lacks); -1 and errno on failure.
static inline int openuikit_accept_closing_on_exec(int listener) {
    return (int)syscall(SYS_accept4, listener, NULL, NULL, SOCK_CLOEXEC);
}

/// poll(2) with a timeout in nanoseconds (ppoll is a GNU extension the C
/// library module lacks): the application's run loop sleeps on the
/// server's socket until its next timer, which poll's milliseconds woke up
/// to 1 ms late. A NULL `timeout` waits without end. Returns as poll does.
static inline int openuikit_poll_nanoseconds(struct pollfd *descriptors, nfds_t count, const struct timespec *timeout) {
    struct timespec left;
    if (timeout) left = *timeout;
    return (int)syscall(SYS_ppoll, descriptors, count, timeout ? &left : NULL, NULL, (size_t)8);
}

/// Seals `fd` against shrinking, and its seals against change.
static inline int openuikit_seal_against_shrinking(int fd) {
    return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_SEAL);
}

/// Whether `fd` is a memfd sealed against shrinking: 1 if so, 0 if it is a
/// memfd without that seal, -1 if it is no memfd (or sealing is unsupported).
static inline int openuikit_is_sealed_against_shrinking(int fd) {
    int seals = fcntl(fd, F_GET_SEALS);
    if (seals < 0) return -1;
    return (seals & F_SEAL_SHRINK) ? 1 : 0;
}

/// Sends one datagram with one descriptor attached (SCM_RIGHTS).
static inline ssize_t openuikit_send_with_descriptor(int socket, const void *bytes, size_t count, int descriptor) {
    struct iovec vector = { .iov_base = (void *)bytes, .iov_len = count };
    union { char buffer[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = { .msg_iov = &vector, .msg_iovlen = 1, .msg_control = control.buffer, .msg_controllen = sizeof control.buffer };
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(header), &descriptor, sizeof(int));
    return sendmsg(socket, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
}

/// Receives one datagram and at most one descriptor with it (*descriptor,
/// else -1). Descriptors beyond the first are closed, as are all of them
/// when the control data was cut short. Returns the datagram's whole
/// length (MSG_TRUNC), which may exceed `capacity`.
static inline ssize_t openuikit_receive_with_descriptor(int socket, void *buffer, size_t capacity, int *descriptor) {
    *descriptor = -1;
    struct iovec vector = { .iov_base = buffer, .iov_len = capacity };
    union { char buffer[CMSG_SPACE(4 * sizeof(int))]; struct cmsghdr align; } control;
    struct msghdr message = { .msg_iov = &vector, .msg_iovlen = 1, .msg_control = control.buffer, .msg_controllen = sizeof control.buffer };
    ssize_t count = recvmsg(socket, &message, MSG_DONTWAIT | MSG_TRUNC | MSG_CMSG_CLOEXEC);
    if (count < 0) return count;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        size_t n = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < n; i++) {
            int fd;
            memcpy(&fd, CMSG_DATA(header) + i * sizeof(int), sizeof(int));
            if (*descriptor < 0 && !(message.msg_flags & MSG_CTRUNC)) *descriptor = fd;
            else close(fd);
        }
    }
    return count;
}
