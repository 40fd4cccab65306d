/// How the ends of open subpaths are drawn.
public enum CGLineCap: Int32, Sendable {
    case butt = 0, round, square
}

/// How lines meet at corners.
public enum CGLineJoin: Int32, Sendable {
    case miter = 0, round, bevel
}

/// What `CGContext.drawPath(using:)` does with the current path.
public enum CGPathDrawingMode: Int32, Sendable {
    case fill = 0, eoFill, stroke, fillStroke, eoFillStroke
}
