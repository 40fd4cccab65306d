/// The stack of current graphics contexts that UIKit's drawing functions
/// draw into: `draw(_:)` runs with the view's backing store pushed.
@MainActor
final class GraphicsContextStack {
    private(set) var contexts: [CGContext] = []
    /// How many times the current context was asked for: the display pass
    /// uses it to tell a view that draws from one whose `draw(_:)` is the
    /// empty default.
    private(set) var reads = 0

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

/// The current graphics context: the view's backing store inside
/// `draw(_:)`, or the context last pushed; nil when there is none.
@MainActor
public func UIGraphicsGetCurrentContext() -> CGContext? {
    UIApplication.shared.graphicsContexts.current
}

/// Makes `context` the current graphics context until the matching pop.
@MainActor
public func UIGraphicsPushContext(_ context: CGContext) {
    UIApplication.shared.graphicsContexts.push(context)
}

/// Restores the context that was current before the last push.
@MainActor
public func UIGraphicsPopContext() {
    UIApplication.shared.graphicsContexts.pop()
}
