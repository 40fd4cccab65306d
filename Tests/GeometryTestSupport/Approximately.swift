import CoreGraphics

// Comparisons of geometry that went through floating-point arithmetic, shared
// by the test targets of the modules that compute it.

/// Tolerance for values that went through `sin`/`cos` or a division.
public let tolerance: CGFloat = 1e-9

public func approximately(_ lhs: CGFloat, _ rhs: CGFloat) -> Bool {
    abs(lhs - rhs) <= tolerance
}

public func approximately(_ lhs: CGPoint, _ rhs: CGPoint) -> Bool {
    approximately(lhs.x, rhs.x) && approximately(lhs.y, rhs.y)
}

public func approximately(_ lhs: CGSize, _ rhs: CGSize) -> Bool {
    approximately(lhs.width, rhs.width) && approximately(lhs.height, rhs.height)
}

public func approximately(_ lhs: CGRect, _ rhs: CGRect) -> Bool {
    approximately(lhs.origin, rhs.origin) && approximately(lhs.size, rhs.size)
}

public func approximately(_ lhs: CGAffineTransform, _ rhs: CGAffineTransform) -> Bool {
    approximately(lhs.a, rhs.a) && approximately(lhs.b, rhs.b) && approximately(lhs.c, rhs.c)
        && approximately(lhs.d, rhs.d) && approximately(lhs.tx, rhs.tx) && approximately(lhs.ty, rhs.ty)
}
