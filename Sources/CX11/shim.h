// Xlib, its MIT-SHM extension and the pieces of XInput 2 the event server's
// window uses. libX11 and libXext come with their headers on every machine
// of this kind; libXi only as a runtime library (libXi.so.6, no
// XInput2.h), so its few types are declared here, matching the ABI of
// <X11/extensions/XInput2.h>, and its functions are looked up with dlsym.
// Xlib's function-like macros (XDestroyImage, ...) cannot be called from
// Swift: hence the small wrappers.
#include <dlfcn.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/XKBlib.h>
#include <X11/extensions/XShm.h>
#include <X11/extensions/XI2.h>

// MARK: XInput 2 (libXi.so.6), as <X11/extensions/XInput2.h> declares it

typedef struct {
    int deviceid;
    int mask_len;
    unsigned char *mask;
} openuikit_XIEventMask;

typedef struct {
    int mask_len;
    unsigned char *mask;
} openuikit_XIButtonState;

typedef struct {
    int mask_len;
    unsigned char *mask;
    double *values;
} openuikit_XIValuatorState;

typedef struct {
    int base;
    int latched;
    int locked;
    int effective;
} openuikit_XIModifierState;

typedef struct {
    int type;
    unsigned long serial;
    Bool send_event;
    Display *display;
    int extension;
    int evtype;
    Time time;
    int deviceid;
    int sourceid;
    int detail;
    Window root;
    Window event;
    Window child;
    double root_x;
    double root_y;
    double event_x;
    double event_y;
    int flags;
    openuikit_XIButtonState buttons;
    openuikit_XIValuatorState valuators;
    openuikit_XIModifierState mods;
    openuikit_XIModifierState group;
} openuikit_XIDeviceEvent;

typedef Status (*openuikit_XIQueryVersion)(Display *display, int *major, int *minor);
typedef int (*openuikit_XISelectEvents)(Display *display, Window window, openuikit_XIEventMask *masks, int count);

// MARK: Xlib's macros as functions

static inline void openuikit_XDestroyImage(XImage *image) {
    XDestroyImage(image);
}

static inline unsigned long openuikit_XGetPixel(XImage *image, int x, int y) {
    return XGetPixel(image, x, y);
}

/// The event's type when it is an XEvent union.
static inline int openuikit_event_type(const XEvent *event) {
    return event->type;
}
