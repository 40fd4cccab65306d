/// A view's own drawing: the display pass gives a view whose `draw(_:)`
/// draws a backing store — a bitmap of its bounds at the screen's scale,
/// y down, pushed as the current graphics context — and shows it as its
/// layer's contents (the bitmap is that image: see `BackingStorePool`).
///
/// There is no runtime to ask whether a class overrides `draw(_:)`, so the
/// first view of each class to be displayed finds out: its `draw(_:)` runs
/// into a backing store, and the class is known not to draw when it reached
/// the default `draw(_:)` without asking for the current context. Views of
/// a class that does not draw keep no backing store and are never asked
/// again; a view joining a window is displayed unless its class is known
/// not to draw, as UIKit displays the views that implement `draw(_:)`.
extension UIView {
    /// The display pass reached this view's layer.
    func displayBackingStore() {
        let application = UIApplication.shared
        let kind = ObjectIdentifier(type(of: self))
        if application.drawingClasses[kind] == false { return }
        let scale = UIScreen.main.scale
        let size = bounds.size
        let width = Int((size.width * scale).rounded(.up)), height = Int((size.height * scale).rounded(.up))
        // The context draws straight into the image the layer shows, from
        // the application's pool of backing stores (BackingStorePool.swift).
        guard width > 0, height > 0, CGImage.isAllocatable(width: width, height: height),
              let store = application.backingStores.store(width: width, height: height)
        else {
            // Nothing to draw into (an empty or absurd size): no drawing shows.
            if application.drawingClasses[kind] == true { layer.contents = nil }
            return
        }
        let context = store.context
        // UIKit's coordinates: origin at the top left of the bounds, y down, in points.
        context.translateBy(x: 0, y: CGFloat(height))
        context.scaleBy(x: scale, y: -scale)
        context.translateBy(x: -bounds.minX, y: -bounds.minY)
        let contexts = GraphicsContextStack.current
        reachedDefaultDraw = false
        let readsBefore = contexts.reads
        contexts.push(context)
        draw(bounds)
        contexts.pop()
        if application.drawingClasses[kind] == nil {
            let draws = !reachedDefaultDraw || contexts.reads > readsBefore
            application.drawingClasses[kind] = draws
            guard draws else { return }
        }
        layer.contentsScale = scale
        layer.contents = store.image
    }

    /// Made, or joining a window: displayed unless its class is known not to draw.
    func displayIfItsClassDraws() {
        if UIApplication.shared.drawingClasses[ObjectIdentifier(type(of: self))] != false {
            setNeedsDisplay()
        }
    }

    /// Becoming a mask, or joining a mask view's tree: a mask view is in no
    /// window, yet it and its subviews are drawn, so those that draw are
    /// displayed.
    func displayAsMask() {
        displayIfItsClassDraws()
        for subview in subviews { subview.displayAsMask() }
    }

    /// Whether this view is a mask view or lies inside one.
    var isInMask: Bool {
        var current: UIView? = self
        while let view = current {
            if view.layer.maskedLayer != nil { return true }
            current = view.superview
        }
        return false
    }

    /// Draws the view and its subviews, as they are now, into the current
    /// graphics context, scaled to fill `rect` (in the context's current
    /// coordinates). What in the tree is marked for layout or display is
    /// laid out and displayed first (`CALayer.render(in:)` does that), so a
    /// view just made, or in no window, shows its content; with
    /// `afterScreenUpdates`, the whole pending transaction is committed
    /// first. False when there is no current context.
    @discardableResult
    public func drawHierarchy(in rect: CGRect, afterScreenUpdates afterUpdates: Bool) -> Bool {
        if afterUpdates { CATransaction.flush() }
        guard let context = UIGraphicsGetCurrentContext(), rect.isFinite, bounds.width > 0, bounds.height > 0 else { return false }
        context.saveGState()
        context.translateBy(x: rect.minX, y: rect.minY)
        context.scaleBy(x: rect.width / bounds.width, y: rect.height / bounds.height)
        layer.render(in: context)
        context.restoreGState()
        return true
    }
}
