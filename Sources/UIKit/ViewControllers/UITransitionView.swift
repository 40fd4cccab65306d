/// The full-window container that holds a presented view controller's view,
/// added to the window in front of the presenter's views (as UIKit's private
/// class of this name is).
@preconcurrency @MainActor
public final class UITransitionView: UIView {}
