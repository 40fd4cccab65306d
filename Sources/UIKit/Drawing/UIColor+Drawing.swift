extension UIColor {
    /// Makes this the fill and stroke colour of the current context.
    public func set() {
        setFill()
        setStroke()
    }

    public func setFill() {
        UIGraphicsGetCurrentContext()?.setFillColor(cgColor)
    }

    public func setStroke() {
        UIGraphicsGetCurrentContext()?.setStrokeColor(cgColor)
    }
}
