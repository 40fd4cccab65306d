/// The full-window container that holds a presented view controller's view,
/// added to the window in front of the presenter's views (as UIKit's private
/// class of this name is).
@preconcurrency @MainActor
public final class UITransitionView: UIView {
    /// Whether a touch that lands on the container itself, not on a view in
    /// it, goes on to the views behind (around a sheet resting undimmed).
    var passesTouchesThrough = false

    public override func hitTest(_ point: CGPoint, with event: UIEvent?) -> UIView? {
        let hit = super.hitTest(point, with: event)
        return passesTouchesThrough && hit === self ? nil : hit
    }
}
