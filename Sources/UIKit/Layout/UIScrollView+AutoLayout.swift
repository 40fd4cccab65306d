/// A scroll view's two layout guides, as in UIKit (iOS 11): constraints to
/// the content guide size and place the content — its solved size becomes
/// ``UIScrollView/contentSize`` — and constraints to the frame guide hold a
/// view still on screen while the content scrolls under it.
extension UIScrollView {
    /// The content's rectangle, from the content's origin. Pin the content's
    /// edges to it: the size the constraints give it is the content size.
    public var contentLayoutGuide: UILayoutGuide {
        systemGuide(\.scrollContentGuide, role: .scrollContent, identifier: "UIScrollView-contentLayoutGuide")
    }

    /// The scroll view's own rectangle, untouched by scrolling: where it is
    /// in the content moves with the content offset.
    public var frameLayoutGuide: UILayoutGuide {
        systemGuide(\.scrollFrameGuide, role: .scrollFrame, identifier: "UIScrollView-frameLayoutGuide")
    }
}
