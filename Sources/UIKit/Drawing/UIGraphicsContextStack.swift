import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The stack of current graphics contexts that UIKit's drawing functions
/// draw into. Each thread has its own, as in UIKit: `draw(_:)` runs on the
/// main thread with the view's backing store pushed, and a background
/// thread that opens an image context draws into that one, without seeing
/// or disturbing the main thread's.
final class GraphicsContextStack {
    private(set) var contexts: [CGContext] = []
    /// How many times the current context was asked for: the display pass
    /// uses it to tell a view that draws from one whose `draw(_:)` is the
    /// empty default.
    private(set) var reads = 0

    /// The calling thread's stack, made on its first use.
    static var current: GraphicsContextStack {
        if let pointer = pthread_getspecific(threadKey) {
            return Unmanaged<GraphicsContextStack>.fromOpaque(pointer).takeUnretainedValue()
        }
        let stack = GraphicsContextStack()
        pthread_setspecific(threadKey, Unmanaged.passRetained(stack).toOpaque())
        return stack
    }

    /// Where each thread keeps its stack, which is released when the thread
    /// ends. A thread-specific slot rather than Foundation's thread
    /// dictionary, whose `String` key was bridged to a new `NSString` and
    /// boxed at every lookup: two allocations each time a view drew.
    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<GraphicsContextStack>.fromOpaque(pointer).release() }
        }
        return key
    }()

    var current: CGContext? {
        reads += 1
        return contexts.last
    }

    func push(_ context: CGContext) { contexts.append(context) }

    /// Contexts opened by `UIGraphicsBeginImageContextWithOptions`, with
    /// the scale their images get.
    var imageContextScales: [ObjectIdentifier: CGFloat] = [:]

    func pop() {
        if let context = contexts.popLast() { imageContextScales[ObjectIdentifier(context)] = nil }
    }

    func removeAll() {
        contexts = []
        imageContextScales = [:]
    }
}

/// The current graphics context of the calling thread: the view's backing
/// store inside `draw(_:)`, or the context last pushed on this thread; nil
/// when there is none. Callable from any thread, as UIKit's.
public func UIGraphicsGetCurrentContext() -> CGContext? {
    GraphicsContextStack.current.current
}

/// Makes `context` the calling thread's current graphics context until the
/// matching pop.
public func UIGraphicsPushContext(_ context: CGContext) {
    GraphicsContextStack.current.push(context)
}

/// Restores the context that was current on this thread before the last push.
public func UIGraphicsPopContext() {
    GraphicsContextStack.current.pop()
}
