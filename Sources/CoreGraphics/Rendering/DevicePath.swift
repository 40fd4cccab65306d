/// A path in device pixels, as the context builds it: subpaths of points,
/// curves already flattened to lines.
struct DevicePath {
    struct Subpath {
        var points: [CGPoint]
        var isClosed = false
    }
    var subpaths: [Subpath] = []
}

/// How the ends of open subpaths are drawn.
public enum CGLineCap: Int32, Sendable {
    case butt = 0, round, square
}

/// How lines meet at corners.
public enum CGLineJoin: Int32, Sendable {
    case miter = 0, round, bevel
}
