extension UIColor {
    /// Makes this the fill and stroke colour of the current context.
    @MainActor
    public func set() {
        setFill()
        setStroke()
    }

    @MainActor
    public func setFill() {
        UIGraphicsGetCurrentContext()?.setFillColor(cgColor)
    }

    @MainActor
    public func setStroke() {
        UIGraphicsGetCurrentContext()?.setStrokeColor(cgColor)
    }
}
