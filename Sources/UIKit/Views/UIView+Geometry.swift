/// Converting points and rectangles between the coordinate spaces of views.
///
/// Conversions honour every level's `frame`, `bounds.origin`, `transform`
/// and the layer's `anchorPoint`, between any two views of a window, and
/// between windows through screen coordinates. A nil view means the window
/// of the receiver.
extension UIView {
    public func convert(_ point: CGPoint, to view: UIView?) -> CGPoint {
        guard let target = view ?? window else { return layer.convertToRootSpace(point) }
        return target.layer.convert(point, from: layer)
    }

    public func convert(_ point: CGPoint, from view: UIView?) -> CGPoint {
        guard let source = view ?? window else { return layer.convertFromRootSpace(point) }
        return layer.convert(point, from: source.layer)
    }

    public func convert(_ rect: CGRect, to view: UIView?) -> CGRect {
        CGRect(boundingCorners: rect.corners.map { convert($0, to: view) })
    }

    public func convert(_ rect: CGRect, from view: UIView?) -> CGRect {
        CGRect(boundingCorners: rect.corners.map { convert($0, from: view) })
    }
}
