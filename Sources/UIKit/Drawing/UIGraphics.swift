import CoreGraphics
import Foundation

// UIKit's stack of current graphics contexts. As in UIKit it belongs to the
// thread: drawing on a background thread (an image renderer) does not see
// the main thread's context.

/// The context drawing goes to: the one pushed last on this thread, or nil.
public func UIGraphicsGetCurrentContext() -> CGContext? {
    GraphicsContextStack.current?.contexts.last
}

/// Makes `context` the current context until the matching ``UIGraphicsPopContext()``.
public func UIGraphicsPushContext(_ context: CGContext) {
    GraphicsContextStack.forThisThread().contexts.append(context)
}

/// Restores the context that was current before the last push; does nothing
/// when nothing was pushed.
public func UIGraphicsPopContext() {
    _ = GraphicsContextStack.current?.contexts.popLast()
}

/// One thread's stack, kept in the thread's dictionary.
private final class GraphicsContextStack {
    var contexts: [CGContext] = []

    private static let key = "OpenUIKit.GraphicsContextStack"

    static var current: GraphicsContextStack? {
        Thread.current.threadDictionary[key] as? GraphicsContextStack
    }

    static func forThisThread() -> GraphicsContextStack {
        if let stack = current { return stack }
        let stack = GraphicsContextStack()
        Thread.current.threadDictionary[key] = stack
        return stack
    }
}
