extension UIView {
    /// The display pass reached this view's layer: the view draws its
    /// content with ``draw(_:)``.
    func displayBackingStore() {
        guard !drawsNothing else { return }
        draw(bounds)
    }
}
