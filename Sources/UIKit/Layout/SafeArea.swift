/// The safe area: the part of each view that the screen's corners, sensor
/// housing and home indicator (and a view controller's extra insets) leave
/// clear, as UIKit works it out.
///
/// It flows down the view tree from one source:
/// 1. the screen's insets (``UIScreen/safeAreaInsets``, which the event
///    server's welcome sets) are a window's safe area, clipped to the window;
/// 2. every other view in a window takes the part of its superview's safe
///    area that it overlaps; a view controller's root view also leaves out
///    what its container's bars cover (a navigation controller's bar, a tab
///    bar controller's tab bar, when the view reaches under them:
///    ``UIViewController/edgesForExtendedLayout``), then adds the
///    controller's ``UIViewController/additionalSafeAreaInsets``;
/// 3. a scroll view that turns part of its safe area into content insets
///    (``UIScrollView/contentInsetAdjustmentBehavior``) passes its subviews
///    only the rest, so rows scrolled under the top edge do not take it again.
///
/// A view outside a window has none. ``UIView/safeAreaInsets`` is worked
/// out whenever it is read. Changes are announced as they happen (the screen's
/// insets, a controller's extra insets, a view moving to another superview
/// or window, a frame or scroll change): each view whose insets changed hears
/// ``UIView/safeAreaInsetsDidChange()`` (its controller
/// ``UIViewController/viewSafeAreaInsetsDidChange()``), is marked for
/// layout, and its constraints to the safe area guide follow at the next
/// layout pass. Until some window has a safe area or some controller extra
/// insets, none of this runs: an application without safe areas pays nothing.
extension UIView {
    /// How far the safe area reaches into this view's bounds from each edge.
    public var safeAreaInsets: UIEdgeInsets {
        if let window = self as? UIWindow { return window.screenSafeAreaInsets }
        guard let superview, window != nil else { return .zero }
        let inherited = superview.safeAreaInsetsForSubviews
        var insets = UIEdgeInsets.zero
        if inherited != .zero {
            let safe = superview.bounds.inset(by: inherited)
            insets = frame.insets(reachedBy: safe)
        }
        if let controller = owningViewController {
            if let container = controller.parent {
                let bars = container.insetsCoveredByBars(ofChildView: self)
                insets = UIEdgeInsets(top: max(insets.top, bars.top), left: max(insets.left, bars.left),
                                      bottom: max(insets.bottom, bars.bottom), right: max(insets.right, bars.right))
            }
            let extra = controller.additionalSafeAreaInsets
            insets = UIEdgeInsets(top: insets.top + extra.top, left: insets.left + extra.left,
                                  bottom: insets.bottom + extra.bottom, right: insets.right + extra.right)
        }
        return insets
    }

    /// The safe area this view hands down to its subviews: its own, less
    /// what a scroll view has already turned into content insets.
    var safeAreaInsetsForSubviews: UIEdgeInsets {
        let own = safeAreaInsets
        guard let scrollView = self as? UIScrollView else { return own }
        let adjusted = scrollView.safeAreaContentInset
        return UIEdgeInsets(top: max(0, own.top - adjusted.top), left: max(0, own.left - adjusted.left),
                            bottom: max(0, own.bottom - adjusted.bottom), right: max(0, own.right - adjusted.right))
    }

    /// Works the view's safe area out again and, if it changed since it was
    /// last announced, announces it and goes on with the subviews (whose
    /// safe area follows this one). With `throughSubtree`, the subviews are
    /// checked even when this view's did not change: after a move to
    /// another superview, what they last announced may be stale.
    func safeAreaMayHaveChanged(throughSubtree: Bool = false) {
        guard UIApplication.shared.safeAreasInUse else { return }
        let insets = safeAreaInsets
        let changed = insets != (layoutState?.announcedSafeAreaInsets ?? .zero)
        if changed {
            ensureLayoutState().announcedSafeAreaInsets = insets
            announceSafeAreaChange()
        }
        if changed || throughSubtree {
            for subview in subviews { subview.safeAreaMayHaveChanged(throughSubtree: throughSubtree) }
        }
    }

    /// The subviews' safe areas may have changed while this view's did not:
    /// its bounds' origin moved (a scroll), or a scroll view changed what
    /// it turns into content insets.
    func subviewsSafeAreaMayHaveChanged() {
        guard UIApplication.shared.safeAreasInUse else { return }
        for subview in subviews { subview.safeAreaMayHaveChanged() }
    }

    private func announceSafeAreaChange() {
        (self as? UIScrollView)?.updateSafeAreaContentInset()
        setNeedsLayout()
        rootLayoutEngine?.markNeedsUpdate()
        safeAreaInsetsDidChange()
        owningViewController?.viewSafeAreaInsetsDidChange()
        if insetsLayoutMarginsFromSafeArea { layoutMarginsDidChange() }
    }
}

extension UIWindow {
    /// The screen's safe area, clipped to the window: a window that covers
    /// the screen has all of it.
    var screenSafeAreaInsets: UIEdgeInsets {
        let screen = windowScene?.screen ?? UIScreen.main
        let screenInsets = screen.safeAreaInsets
        guard screenInsets != .zero else { return .zero }
        return frame.insets(reachedBy: screen.bounds.inset(by: screenInsets))
    }
}

extension UIScreen {
    /// The screen's safe area changed: every window (and what is in it) follows.
    func safeAreaInsetsDidChange() {
        let application = UIApplication.shared
        if safeAreaInsets != .zero { application.safeAreasInUse = true }
        for window in application.windows { window.safeAreaMayHaveChanged() }
    }
}

extension CGRect {
    /// How far past each edge of `safe` this rectangle reaches, each at most
    /// this rectangle's own width or height.
    func insets(reachedBy safe: CGRect) -> UIEdgeInsets {
        UIEdgeInsets(top: min(max(0, safe.minY - minY), height), left: min(max(0, safe.minX - minX), width),
                     bottom: min(max(0, maxY - safe.maxY), height), right: min(max(0, maxX - safe.maxX), width))
    }
}

extension UIScrollView {
    /// Works out again how much of the safe area becomes content insets
    /// (``contentInsetAdjustmentBehavior``). When that changes, the scroll
    /// view hears `adjustedContentInsetDidChange()`, its delegate
    /// `scrollViewDidChangeAdjustedContentInset(_:)`, and content resting at
    /// its top (or left) edge stays there: a table's first row moves down
    /// below the top inset, as on iOS. Content the user is moving is left where it is.
    func updateSafeAreaContentInset() {
        guard UIApplication.shared.safeAreasInUse else { return }
        let adjustment = safeAreaAdjustment(for: safeAreaInsets)
        let old = safeAreaContentInset
        guard adjustment != old else { return }
        let restingTop = -(contentInset.top + old.top), restingLeft = -(contentInset.left + old.left)
        safeAreaContentInset = adjustment
        if !isTracking && !isDecelerating {
            var offset = contentOffset
            if offset.y == restingTop { offset.y = -(contentInset.top + adjustment.top) }
            if offset.x == restingLeft { offset.x = -(contentInset.left + adjustment.left) }
            if offset != contentOffset { contentOffset = offset }
        }
        setNeedsLayout()
        adjustedContentInsetDidChange()
        delegate?.scrollViewDidChangeAdjustedContentInset(self)
        subviewsSafeAreaMayHaveChanged()
    }

    /// The edges of `safe` that ``contentInsetAdjustmentBehavior`` takes in.
    private func safeAreaAdjustment(for safe: UIEdgeInsets) -> UIEdgeInsets {
        let vertical: Bool, horizontal: Bool
        switch contentInsetAdjustmentBehavior {
        case .never: return .zero
        case .always: return safe
        case .scrollableAxes, .automatic:
            vertical = isScrollEnabled && (alwaysBounceVertical || contentSize.height > bounds.height)
                || (contentInsetAdjustmentBehavior == .automatic && isRootViewOfBarControllerChild)
            horizontal = isScrollEnabled && (alwaysBounceHorizontal || contentSize.width > bounds.width)
        }
        return UIEdgeInsets(top: vertical ? safe.top : 0, left: horizontal ? safe.left : 0,
                            bottom: vertical ? safe.bottom : 0, right: horizontal ? safe.right : 0)
    }

    /// Whether this is the root view of a controller shown by a navigation
    /// or tab bar controller: `.automatic` always adjusts such a view vertically.
    private var isRootViewOfBarControllerChild: Bool {
        guard let controller = owningViewController else { return false }
        return controller.navigationController != nil || controller.tabBarController != nil
    }
}
