// The hooks through which Core Foundation's run loop serves the main thread
// on Linux, declared here so that UIKit's run loop can serve it the same
// way (see MainThreadWork.swift). libdispatch and the toolchain's Foundation
// export them; they are the ones swift-corelibs-foundation itself calls.
//
// The types are opaque pointers under names of our own: Swift's importer
// would otherwise treat CF-style `...Ref` typedefs as managed CF classes.
#include <stdint.h>

typedef struct openuikit_cf_run_loop *OpenUIKitCFRunLoop;
typedef const struct openuikit_cf_string *OpenUIKitCFString;

// libdispatch: the main queue's wake-up handle (an eventfd on Linux) and
// the call that drains the main queue on the thread it is bound to.
int _dispatch_get_main_queue_handle_4CF(void);
void _dispatch_main_queue_callback_4CF(void *message);

// Core Foundation's run loop, as Foundation's RunLoop uses it.
extern const OpenUIKitCFString kCFRunLoopDefaultMode;
OpenUIKitCFRunLoop CFRunLoopGetMain(void);
int32_t CFRunLoopRunInMode(OpenUIKitCFString mode, double seconds, unsigned char returnAfterSourceHandled);
double CFRunLoopGetNextTimerFireDate(OpenUIKitCFRunLoop runLoop, OpenUIKitCFString mode);
void CFRunLoopAddCommonMode(OpenUIKitCFRunLoop runLoop, OpenUIKitCFString mode);
double CFAbsoluteTimeGetCurrent(void);
