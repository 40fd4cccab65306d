import TestExpectations
import Testing
@testable import UIKit

/// A view that draws a shadow 2 points above and left of its content and 4
/// below and right: constraints should align the content, not the shadow.
@MainActor
final class ShadowedView: UIView {
    override var alignmentRectInsets: UIEdgeInsets { UIEdgeInsets(top: 2, left: 2, bottom: 4, right: 4) }
}

@MainActor
@Suite struct AlignmentAndMarginTests {
    /// A window and a 300×200 container at (0, 0) in it.
    private func makeContainer() -> (UIWindow, UIView) {
        let window = makeWindow()
        let container = UIView(frame: CGRect(x: 0, y: 0, width: 300, height: 200))
        window.addSubview(container)
        return (window, container)
    }

    private func constrainedView(in superview: UIView, _ view: UIView = UIView()) -> UIView {
        view.translatesAutoresizingMaskIntoConstraints = false
        superview.addSubview(view)
        return view
    }

    @Test func theAlignmentRectangleIsTheFrameInsetByTheInsets() {
        let card = ShadowedView(frame: CGRect(x: 10, y: 20, width: 106, height: 56))
        expectEqual(card.alignmentRect(forFrame: card.frame), CGRect(x: 12, y: 22, width: 100, height: 50))
        expectEqual(card.frame(forAlignmentRect: CGRect(x: 12, y: 22, width: 100, height: 50)), card.frame)
        let plain = UIView(frame: CGRect(x: 1, y: 2, width: 3, height: 4))
        expectEqual(plain.alignmentRectInsets, .zero)
        expectEqual(plain.alignmentRect(forFrame: plain.frame), plain.frame)
    }

    /// Constraints place and size the content; the frame grows around it,
    /// neighbours line up with the content, and subviews are placed in the
    /// frame's coordinates.
    @Test func constraintsAlignTheContentNotTheShadow() {
        let (_, container) = makeContainer()
        let card = constrainedView(in: container, ShadowedView())
        let badge = constrainedView(in: container)
        NSLayoutConstraint.activate([
            card.leadingAnchor.constraint(equalTo: container.leadingAnchor, constant: 20),
            card.topAnchor.constraint(equalTo: container.topAnchor, constant: 10),
            card.widthAnchor.constraint(equalToConstant: 100), card.heightAnchor.constraint(equalToConstant: 50),
            badge.leadingAnchor.constraint(equalTo: card.trailingAnchor, constant: 8),
            badge.topAnchor.constraint(equalTo: card.bottomAnchor),
            badge.widthAnchor.constraint(equalToConstant: 10), badge.heightAnchor.constraint(equalToConstant: 10),
        ])
        container.layoutIfNeeded()
        expectEqual(card.frame, CGRect(x: 18, y: 8, width: 106, height: 56))
        expectEqual(badge.frame, CGRect(x: 128, y: 60, width: 10, height: 10))

        // Pinned to the card's edges: over its content, 2 points into its bounds.
        let inner = constrainedView(in: card)
        // Pinned to the container: the card's frame origin is what its subviews count from.
        let deep = constrainedView(in: card)
        NSLayoutConstraint.activate([
            inner.leadingAnchor.constraint(equalTo: card.leadingAnchor), inner.trailingAnchor.constraint(equalTo: card.trailingAnchor),
            inner.topAnchor.constraint(equalTo: card.topAnchor), inner.bottomAnchor.constraint(equalTo: card.bottomAnchor),
            deep.leadingAnchor.constraint(equalTo: container.leadingAnchor, constant: 50),
            deep.topAnchor.constraint(equalTo: container.topAnchor, constant: 30),
            deep.widthAnchor.constraint(equalToConstant: 5), deep.heightAnchor.constraint(equalToConstant: 5),
        ])
        container.layoutIfNeeded()
        expectEqual(inner.frame, CGRect(x: 2, y: 2, width: 100, height: 50))
        expectEqual(card.convert(deep.frame, to: container), CGRect(x: 50, y: 30, width: 5, height: 5))
        // The margins guide is the bounds inset by the margins, shadow included.
        expectEqual(card.layoutMarginsGuide.layoutFrame, CGRect(x: 8, y: 8, width: 90, height: 40))
    }

    /// A view laid out by its frame offers its alignment rectangle to constraints.
    @Test func aFramedViewsConstraintsSeeItsContent() {
        let (_, container) = makeContainer()
        let framed = ShadowedView(frame: CGRect(x: 150, y: 100, width: 54, height: 24))
        container.addSubview(framed)
        let follower = constrainedView(in: container)
        NSLayoutConstraint.activate([
            follower.leadingAnchor.constraint(equalTo: framed.trailingAnchor),
            follower.topAnchor.constraint(equalTo: framed.bottomAnchor),
            follower.widthAnchor.constraint(equalToConstant: 5), follower.heightAnchor.constraint(equalToConstant: 5),
        ])
        container.layoutIfNeeded()
        expectEqual(follower.frame.origin, CGPoint(x: 200, y: 120))
        framed.frame.origin.x = 100
        container.layoutIfNeeded()
        expectEqual(follower.frame.origin, CGPoint(x: 150, y: 120))
        // The fitting size is the frame's: the content's 48×18 and the shadow.
        let fitted = constrainedView(in: container, ShadowedView())
        NSLayoutConstraint.activate([fitted.widthAnchor.constraint(equalToConstant: 48), fitted.heightAnchor.constraint(equalToConstant: 18)])
        expectEqual(fitted.systemLayoutSizeFitting(UIView.layoutFittingCompressedSize), CGSize(width: 54, height: 24))
    }

    /// A subview that preserves its superview's margins keeps its content
    /// inside them where they reach further in than its own.
    @Test func preservedSuperviewMarginsPushTheGuideInByTheSmallestAmount() {
        let (_, container) = makeContainer()
        container.layoutMargins = UIEdgeInsets(top: 8, left: 30, bottom: 8, right: 30)
        let band = UIView(frame: CGRect(x: 10, y: 50, width: 280, height: 100))
        container.addSubview(band)
        let content = constrainedView(in: band)
        NSLayoutConstraint.activate([
            content.leadingAnchor.constraint(equalTo: band.layoutMarginsGuide.leadingAnchor),
            content.trailingAnchor.constraint(equalTo: band.layoutMarginsGuide.trailingAnchor),
            content.topAnchor.constraint(equalTo: band.layoutMarginsGuide.topAnchor),
            content.bottomAnchor.constraint(equalTo: band.layoutMarginsGuide.bottomAnchor),
        ])
        #expect(!band.preservesSuperviewLayoutMargins, "off by default")
        container.layoutIfNeeded()
        expectEqual(content.frame, CGRect(x: 8, y: 8, width: 264, height: 84))

        band.preservesSuperviewLayoutMargins = true
        container.layoutIfNeeded()
        // The container's 30-point side margins reach 20 points into the band,
        // more than its own 8; its top is 50 points down, below the container's 8.
        expectEqual(content.frame, CGRect(x: 20, y: 8, width: 240, height: 84))
        expectEqual(band.layoutMargins, UIEdgeInsets(top: 8, left: 8, bottom: 8, right: 8), "its own margins are unchanged")

        container.layoutMargins = UIEdgeInsets(top: 8, left: 40, bottom: 8, right: 12)
        band.frame.origin.x = 0
        container.layoutIfNeeded()
        // Left: 40 points into the band now. Right: the container's 12-point
        // margin ends 8 points short of the band, which keeps its own 8.
        expectEqual(content.frame, CGRect(x: 40, y: 8, width: 232, height: 84))
    }

    /// A controller's root view keeps at least the system's minimum side
    /// margins (16 points on an iPhone-sized screen) unless told not to.
    @Test func aRootViewKeepsTheSystemMinimumMargins() {
        let window = makeWindow()
        let controller = UIViewController()
        window.rootViewController = controller
        let root = controller.view!
        let label = constrainedView(in: root)
        NSLayoutConstraint.activate([
            label.leadingAnchor.constraint(equalTo: root.layoutMarginsGuide.leadingAnchor),
            label.trailingAnchor.constraint(equalTo: root.layoutMarginsGuide.trailingAnchor),
            label.topAnchor.constraint(equalTo: root.layoutMarginsGuide.topAnchor),
            label.heightAnchor.constraint(equalToConstant: 20),
        ])
        expectEqual(controller.systemMinimumLayoutMargins, NSDirectionalEdgeInsets(top: 0, leading: 16, bottom: 0, trailing: 16))
        #expect(controller.viewRespectsSystemMinimumLayoutMargins)
        window.layoutIfNeeded()
        expectEqual(root.layoutMargins, UIEdgeInsets(top: 8, left: 16, bottom: 8, right: 16))
        expectEqual(label.frame, CGRect(x: 16, y: 8, width: 368, height: 20))

        // Larger margins win; smaller ones give way to the minimum, side by side.
        root.directionalLayoutMargins = NSDirectionalEdgeInsets(top: 0, leading: 4, bottom: 0, trailing: 40)
        window.layoutIfNeeded()
        expectEqual(root.directionalLayoutMargins, NSDirectionalEdgeInsets(top: 0, leading: 16, bottom: 0, trailing: 40))
        expectEqual(label.frame, CGRect(x: 16, y: 0, width: 344, height: 20))

        controller.viewRespectsSystemMinimumLayoutMargins = false
        window.layoutIfNeeded()
        expectEqual(root.layoutMargins, UIEdgeInsets(top: 0, left: 4, bottom: 0, right: 40))
        expectEqual(label.frame, CGRect(x: 4, y: 0, width: 356, height: 20))

        // Other views keep their own margins; an iPad-sized screen has 20-point minimums.
        expectEqual(label.layoutMargins, UIEdgeInsets(top: 8, left: 8, bottom: 8, right: 8))
        UIScreen.main.bounds = CGRect(x: 0, y: 0, width: 820, height: 1180)
        expectEqual(controller.systemMinimumLayoutMargins, NSDirectionalEdgeInsets(top: 0, leading: 20, bottom: 0, trailing: 20))
    }
}
