extension CALayer {
    /// A layer UIKit makes as part of a view's look (a switch's thumb, a
    /// slider's track, a scroll indicator). UIKit builds these parts from
    /// views, whose layers have no implicit animations; so these have none
    /// either, and a control animates them only on purpose (an animation it
    /// adds itself).
    static func partWithoutActions() -> CALayer {
        let layer = CALayer()
        layer.delegate = NoActions.shared
        return layer
    }
}

/// Answers every action request with "none".
@MainActor
private final class NoActions: CALayerDelegate {
    static let shared = NoActions()
    /// One answer for every request: an `NSNull` made per request was a heap
    /// allocation each time a part's property changed (a scrolling table's
    /// indicator: about one per refresh, callgrind).
    private let none = NSNull()

    func action(for layer: CALayer, forKey event: String) -> (any CAAction)? { none }
}
