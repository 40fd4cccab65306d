import DrawingTestSupport
import Foundation
import TestExpectations
import Testing
@testable import UIKit

// How buttons, switches and sliders look: colours by type and state, the
// layout of a button's title and image, tint inheritance, and pixels of the
// whole view tree as the compositor's code draws it (`drawHierarchy`).

/// The view tree under `view` (already in a window) drawn on white, at
/// the screen's scale so that backing stores are copied pixel for pixel.
@MainActor
func snapshot(_ view: UIView) -> CGImage {
    let format = UIGraphicsImageRendererFormat()
    format.scale = UIScreen.main.scale
    return UIGraphicsImageRenderer(size: view.bounds.size, format: format).image { context in
        UIColor.white.setFill()
        context.fill(CGRect(origin: .zero, size: view.bounds.size))
        view.drawHierarchy(in: view.bounds, afterScreenUpdates: true)
    }.cgImage!
}

/// The pixel under the point `point` of a snapshot, R G B A.
@MainActor
func pixel(_ image: CGImage, at point: CGPoint) -> [UInt8] {
    let scale = UIScreen.main.scale
    return rgba(image, Int(point.x * scale), Int(point.y * scale))
}

/// The colour `color` makes over white, 0…255 per channel.
func overWhite(_ color: UIColor) -> [UInt8] {
    let c = color.cgColor
    let blend = { (v: CGFloat) in UInt8((v * c.alpha + (1 - c.alpha)) * 255 + 0.5) }
    return [blend(c.red), blend(c.green), blend(c.blue), 255]
}

/// The darkest pixel of `image` in a rectangle of points, by its red,
/// green and blue together.
@MainActor
func darkestPixel(_ image: CGImage, in rect: CGRect) -> [UInt8] {
    let scale = UIScreen.main.scale
    var darkest: [UInt8] = [255, 255, 255, 255]
    for y in Int(rect.minY * scale)..<Int(rect.maxY * scale) {
        for x in Int(rect.minX * scale)..<Int(rect.maxX * scale) {
            let p = rgba(image, x, y)
            if Int(p[0]) + Int(p[1]) + Int(p[2]) < Int(darkest[0]) + Int(darkest[1]) + Int(darkest[2]) { darkest = p }
        }
    }
    return darkest
}

@MainActor
private func scene(_ size: CGSize = CGSize(width: 200, height: 60)) -> UIView {
    let window = makeWindow()
    let container = UIView(frame: CGRect(origin: .zero, size: size))
    window.addSubview(container)
    return container
}

/// A square image of `color`, `side` pixels at scale 1.
@MainActor
private func squareImage(_ color: UIColor, side: Int) -> UIImage {
    let format = UIGraphicsImageRendererFormat()
    format.scale = 1
    return UIGraphicsImageRenderer(size: CGSize(width: side, height: side), format: format).image { context in
        color.setFill()
        context.fill(CGRect(x: 0, y: 0, width: side, height: side))
    }
}

@MainActor
@Suite struct ButtonLookTests {
    @Test func titleColoursByTypeAndStateFallBackToNormalThenToTheType() {
        let system = UIButton(type: .system), custom = UIButton(type: .custom)
        #expect(system.currentTitleColor == .systemBlue && system.titleColor(for: .highlighted) == .systemBlue)
        expectEqual(system.titleColor(for: .disabled), ControlMetrics.systemButtonDisabledTitleColor)
        #expect(custom.currentTitleColor == .white && custom.titleColor(for: .disabled) == .white)
        custom.setTitleColor(.red, for: .normal)
        custom.setTitleColor(.green, for: .highlighted)
        #expect(custom.titleColor(for: .disabled) == .red && custom.titleColor(for: .highlighted) == .green)
        custom.isHighlighted = true
        #expect(custom.currentTitleColor == .green && custom.titleLabel?.textColor == .green)
        custom.setTitleColor(nil, for: .highlighted)
        expectEqual(custom.titleLabel?.textColor, .red)
        system.isEnabled = false
        expectEqual(system.titleLabel?.textColor, ControlMetrics.systemButtonDisabledTitleColor)
        expectEqual(system.titleLabel?.font, UIFont.systemFont(ofSize: ControlMetrics.buttonTitleFontSize))
    }

    @Test func aSystemButtonsTitleFollowsTheTintOfItsAncestors() {
        final class TintWatcher: UIView {
            var changes = 0
            override func tintColorDidChange() { changes += 1 }
        }
        let container = scene()
        let middle = TintWatcher(frame: container.bounds)
        let button = UIButton(type: .system)
        middle.addSubview(button)
        container.addSubview(middle)
        expectEqual(middle.changes, 1, "moving under a new superview")
        #expect(button.tintColor == .systemBlue && button.currentTitleColor == .systemBlue)
        container.tintColor = .red
        #expect(middle.changes == 2 && button.tintColor == .red && button.titleLabel?.textColor == .red)
        middle.tintColor = .green
        container.tintColor = .blue
        expectEqual(middle.changes, 3, "a view with its own tint does not hear its ancestors'")
        expectEqual(button.titleLabel?.textColor, .green)
        middle.tintColor = nil
        expectEqual(button.titleLabel?.textColor, .blue)
        let custom = UIButton(type: .custom)
        middle.addSubview(custom)
        expectEqual(custom.currentTitleColor, .white, "a custom button ignores the tint")
    }

    @Test func contentEdgeInsetsPadTheTitleAndTheFittingSize() {
        let button = UIButton(type: .system)
        button.setTitle("Continue", for: .normal)
        let font = UIFont.systemFont(ofSize: ControlMetrics.buttonTitleFontSize)
        let title = "Continue".size(withAttributes: [.font: font])
        let plain = button.sizeThatFits(.zero)
        expectEqual(plain, CGSize(width: ceil(title.width), height: ceil(title.height) + 2 * ControlMetrics.buttonVerticalPadding))
        expectEqual(button.intrinsicContentSize, plain)
        button.contentEdgeInsets = UIEdgeInsets(top: 4, left: 10, bottom: 6, right: 20)
        expectEqual(button.sizeThatFits(.zero), CGSize(width: ceil(title.width) + 30, height: ceil(title.height) + 10))
        button.frame = CGRect(x: 0, y: 0, width: 200, height: 60)
        button.contentHorizontalAlignment = .left
        button.contentVerticalAlignment = .top
        button.layoutIfNeeded()
        expectEqual(button.titleLabel?.frame.origin, CGPoint(x: 10, y: 4))
        button.contentHorizontalAlignment = .right
        button.contentVerticalAlignment = .bottom
        button.layoutIfNeeded()
        let frame = button.titleLabel!.frame
        #expect(abs(frame.maxX - 180) < 0.34 && abs(frame.maxY - 54) < 0.34)
        button.titleEdgeInsets = UIEdgeInsets(top: 0, left: -5, bottom: 0, right: 5)
        button.layoutIfNeeded()
        #expect(abs(button.titleLabel!.frame.minX - (frame.minX - 5)) < 0.34)
    }

    // The numbers below are iOS's, from a peer's UIKit test suite whose
    // expectations run on Apple's simulator.
    @Test func anEmptyButtonFitsThirtyByThirtyFour() {
        let button = UIButton(frame: .zero)
        button.sizeToFit()
        expectEqual(button.bounds.size, CGSize(width: 30, height: 34))
    }

    @Test func anImageTallerThanTheTitleSetsTheHeightWithoutThePadding() {
        let button = UIButton(type: .custom)
        button.setImage(squareImage(.red, side: 80), for: .normal)
        button.setTitle("Title", for: .normal)
        button.sizeToFit()
        expectEqual(button.bounds.height, 80)
    }

    @Test func aTopOrBottomAlignedTitleStaysSixPointsFromThatEdgeOfAButtonSizedToFit() {
        for alignment in [UIControl.ContentVerticalAlignment.top, .bottom] {
            let button = UIButton(type: .system)
            button.setTitle("Title", for: .normal)
            button.contentVerticalAlignment = alignment
            button.sizeToFit()
            button.layoutIfNeeded()
            let title = button.titleLabel!.frame
            if alignment == .top {
                expectEqual(title.minY, 6)
            } else {
                #expect(abs(button.bounds.height - title.maxY - 6) < 0.34, "\(title) in \(button.bounds)")
            }
        }
    }

    @Test func aButtonWithoutATitleHasNoTitleShadowColor() {
        let button = UIButton(type: .system)
        button.setTitleShadowColor(.red, for: .normal)
        #expect(button.titleShadowColor(for: .normal) == nil)
        #expect(button.currentTitleShadowColor == nil)
        button.setTitle("Title", for: .normal)
        expectEqual(button.titleShadowColor(for: .normal), .red)
    }

    @Test func aLongTitleIsTruncatedInTheMiddleWithinTheInsets() {
        let button = UIButton(type: .system)
        button.frame = CGRect(x: 0, y: 0, width: 120, height: 44)
        button.contentEdgeInsets = UIEdgeInsets(top: 0, left: 10, bottom: 0, right: 10)
        button.setTitle("A title far too long for the button", for: .normal)
        button.layoutIfNeeded()
        let label = button.titleLabel!
        #expect(label.frame.minX >= 10 && label.frame.maxX <= 110.34)
        let lines = label.textLayout(in: label.bounds.size, lines: 1).lineStrings
        #expect(lines.count == 1 && lines[0].contains("\u{2026}") && lines[0].hasPrefix("A") && lines[0].hasSuffix("utton"), "\(lines)")
    }

    @Test func anAttributedTitleComesBeforeThePlainOneAndABackgroundImageFillsTheButton() {
        let container = scene()
        let button = UIButton(type: .custom)
        button.frame = container.bounds
        button.setTitle("Plain", for: .normal)
        button.setAttributedTitle(NSAttributedString(string: "Rich", attributes: [.foregroundColor: UIColor.green]), for: .normal)
        button.setAttributedTitle(NSAttributedString(string: "Pressed"), for: .highlighted)
        #expect(button.titleLabel?.text == "Rich" && button.currentTitle == "Plain")
        button.isHighlighted = true
        #expect(button.titleLabel?.text == "Pressed" && button.currentAttributedTitle?.string == "Pressed")
        button.isHighlighted = false
        button.setAttributedTitle(nil, for: .normal)
        expectEqual(button.titleLabel?.text, "Plain")
        button.setBackgroundImage(squareImage(.blue, side: 4), for: .normal)
        button.setBackgroundImage(squareImage(.red, side: 4), for: .disabled)
        container.addSubview(button)
        var picture = snapshot(container)
        expectEqual(pixel(picture, at: CGPoint(x: 1, y: 1)), [0, 0, 255, 255], "stretched to the corners")
        expectEqual(pixel(picture, at: CGPoint(x: 199, y: 59)), [0, 0, 255, 255])
        var whiteTitlePixels = 0
        for y in 20 * 3..<40 * 3 { for x in 70 * 3..<130 * 3 where rgba(picture, x, y)[0] > 200 { whiteTitlePixels += 1 } }
        #expect(whiteTitlePixels > 50, "the custom button's white title is drawn over it")
        button.isEnabled = false
        picture = snapshot(container)
        expectEqual(pixel(picture, at: CGPoint(x: 1, y: 1)), [255, 0, 0, 255])
        #expect(button.sizeThatFits(.zero).width >= 4 && UIButton(type: .custom).sizeThatFits(.zero) == ControlMetrics.emptyButtonSize)
        let big = UIButton(type: .custom)
        big.setBackgroundImage(squareImage(.blue, side: 90), for: .normal)
        expectEqual(big.sizeThatFits(.zero), CGSize(width: 90, height: 90), "at least the background image's size")
    }

    @Test func aSystemButtonDrawsItsTitleInTheTintAndFadesItWhileHighlighted() {
        let container = scene()
        let button = UIButton(type: .system)
        button.frame = container.bounds
        button.setTitle("Tap me", for: .normal)
        container.addSubview(button)
        let normal = darkestPixel(snapshot(container), in: container.bounds)
        #expect(close(normal, overWhite(.systemBlue), tolerance: 6), "\(normal)")
        button.isHighlighted = true
        let faded = darkestPixel(snapshot(container), in: container.bounds)
        #expect(close(faded, overWhite(UIColor.systemBlue.withAlphaComponent(ControlMetrics.systemButtonHighlightedAlpha)), tolerance: 6),
                "\(faded)")
        button.isHighlighted = false
        button.isEnabled = false
        let disabled = darkestPixel(snapshot(container), in: container.bounds)
        #expect(close(disabled, overWhite(ControlMetrics.systemButtonDisabledTitleColor), tolerance: 6), "\(disabled)")
    }

    @Test func imagesAreTemplatesInASystemButtonAndShadedInACustomOne() {
        let container = scene()
        let image = squareImage(.red, side: 12)
        let system = UIButton(type: .system), custom = UIButton(type: .custom)
        system.frame = CGRect(x: 0, y: 0, width: 100, height: 60)
        custom.frame = CGRect(x: 100, y: 0, width: 100, height: 60)
        for button in [system, custom] {
            button.setImage(image, for: .normal)
            container.addSubview(button)
        }
        var picture = snapshot(container)
        expectEqual(pixel(picture, at: CGPoint(x: 50, y: 30)), overWhite(.systemBlue), "the image's shape in the tint")
        expectEqual(pixel(picture, at: CGPoint(x: 150, y: 30)), [255, 0, 0, 255], "the image's own colours")
        custom.isHighlighted = true
        picture = snapshot(container)
        #expect(close(pixel(picture, at: CGPoint(x: 150, y: 30)), [170, 0, 0, 255], tolerance: 2), "darkened by a third")
        custom.isHighlighted = false
        custom.isEnabled = false
        picture = snapshot(container)
        #expect(close(pixel(picture, at: CGPoint(x: 150, y: 30)), [255, 128, 128, 255], tolerance: 2), "faded to half")
        custom.adjustsImageWhenDisabled = false
        picture = snapshot(container)
        expectEqual(pixel(picture, at: CGPoint(x: 150, y: 30)), [255, 0, 0, 255])
    }
}

@MainActor
@Suite struct SwitchAndSliderLookTests {
    @Test func aSwitchShowsItsValueWithTheTrackColourAndTheThumbsSide() {
        let container = scene(CGSize(width: 60, height: 40))
        let toggle = UISwitch(frame: CGRect(x: 4, y: 4, width: 0, height: 0))
        container.addSubview(toggle)
        // Off: light grey track, thumb at the left end.
        var picture = snapshot(container)
        let trackOff = overWhite(.secondarySystemFill)
        #expect(close(pixel(picture, at: CGPoint(x: 4 + 46, y: 4 + 15.5)), trackOff, tolerance: 3))
        expectEqual(pixel(picture, at: CGPoint(x: 4 + 15.5, y: 4 + 15.5)), [255, 255, 255, 255], "thumb")
        expectEqual(pixel(picture, at: CGPoint(x: 2, y: 2)), [255, 255, 255, 255], "nothing outside the switch")
        #expect(close(pixel(picture, at: CGPoint(x: 4 + 0.5, y: 4 + 0.5)), [255, 255, 255, 255], tolerance: 3), "round ends")
        toggle.isOn = true
        picture = snapshot(container)
        expectEqual(pixel(picture, at: CGPoint(x: 4 + 5, y: 4 + 15.5)), overWhite(.systemGreen))
        expectEqual(pixel(picture, at: CGPoint(x: 4 + 51 - 15.5, y: 4 + 15.5)), [255, 255, 255, 255], "thumb at the right")
        toggle.onTintColor = .purple
        toggle.thumbTintColor = .yellow
        picture = snapshot(container)
        expectEqual(pixel(picture, at: CGPoint(x: 4 + 5, y: 4 + 15.5)), overWhite(.purple))
        expectEqual(pixel(picture, at: CGPoint(x: 4 + 51 - 15.5, y: 4 + 15.5)), overWhite(.yellow))
        toggle.isEnabled = false
        picture = snapshot(container)
        #expect(close(pixel(picture, at: CGPoint(x: 4 + 5, y: 4 + 15.5)),
                      overWhite(UIColor.purple.withAlphaComponent(ControlMetrics.disabledControlAlpha)), tolerance: 2))
        #expect(close(pixel(picture, at: CGPoint(x: 4 + 51 - 15.5, y: 4 + 15.5)),
                      overWhite(UIColor.yellow.withAlphaComponent(ControlMetrics.disabledControlAlpha)), tolerance: 2),
                "the thumb fades with the track, as one group")
    }

    @Test func aSwitchsThumbCastsAShadowBelowIt() {
        let container = scene(CGSize(width: 60, height: 40))
        let toggle = UISwitch(frame: CGRect(x: 4, y: 4, width: 0, height: 0))
        toggle.onTintColor = .white
        toggle.isOn = true
        container.addSubview(toggle)
        let picture = snapshot(container)
        let below = pixel(picture, at: CGPoint(x: 4 + 51 - 15.5, y: 4 + 2 + 27 + 0.5))
        let above = pixel(picture, at: CGPoint(x: 4 + 51 - 15.5, y: 4 + 2 - 0.5))
        #expect(below[0] < 250 && below[0] < above[0], "below \(below), above \(above)")
    }

    @Test func aSliderFillsItsTrackUpToTheThumb() {
        let container = scene(CGSize(width: 220, height: 40))
        let slider = UISlider(frame: CGRect(x: 10, y: 5, width: 200, height: 30))
        slider.value = 0.25
        container.addSubview(slider)
        var picture = snapshot(container)
        let track = slider.trackRect(forBounds: slider.bounds)
        let thumb = slider.thumbRect(forBounds: slider.bounds, trackRect: track, value: 0.25)
        #expect(track.height == ControlMetrics.sliderTrackHeight && thumb.width == ControlMetrics.sliderThumbDiameter)
        let y = 5 + track.midY
        expectEqual(pixel(picture, at: CGPoint(x: 10 + thumb.minX - 12, y: y)), overWhite(.systemBlue), "minimum side: the tint")
        #expect(close(pixel(picture, at: CGPoint(x: 10 + thumb.maxX + 8, y: y)), overWhite(.systemFill), tolerance: 2), "maximum side")
        expectEqual(pixel(picture, at: CGPoint(x: 10 + thumb.midX, y: y)), [255, 255, 255, 255], "thumb")
        expectEqual(pixel(picture, at: CGPoint(x: 10 + thumb.minX - 12, y: y - 4)), [255, 255, 255, 255], "the track is thin")
        slider.value = 1
        slider.minimumTrackTintColor = .red
        slider.maximumTrackTintColor = .black
        slider.thumbTintColor = .green
        container.tintColor = .orange
        picture = snapshot(container)
        let end = slider.thumbRect(forBounds: slider.bounds, trackRect: track, value: 1)
        expectEqual(pixel(picture, at: CGPoint(x: 10 + 20, y: y)), [255, 0, 0, 255])
        expectEqual(pixel(picture, at: CGPoint(x: 10 + end.midX, y: y)), [0, 255, 0, 255])
        slider.minimumTrackTintColor = nil
        picture = snapshot(container)
        expectEqual(pixel(picture, at: CGPoint(x: 10 + 20, y: y)), overWhite(.orange), "the inherited tint")
        slider.isEnabled = false
        picture = snapshot(container)
        #expect(close(pixel(picture, at: CGPoint(x: 10 + 20, y: y)),
                      overWhite(UIColor.orange.withAlphaComponent(ControlMetrics.disabledControlAlpha)), tolerance: 2))
    }

    @Test func aSliderRefusesValuesThatAreNotNumbersAndKeepsItsThumbOnTheTrack() {
        let slider = UISlider(frame: CGRect(x: 0, y: 0, width: 200, height: 30))
        slider.value = 0.5
        slider.value = .nan
        expectEqual(slider.value, 0.5)
        slider.minimumValue = -.infinity
        slider.maximumValue = .infinity
        slider.maximumValue = .nan
        #expect(slider.minimumValue == 0 && slider.maximumValue == 1)
        slider.value = .infinity
        expectEqual(slider.value, 1)
        let thumb = slider.thumbRect(forBounds: slider.bounds, trackRect: slider.trackRect(forBounds: slider.bounds), value: slider.value)
        #expect(thumb.isFinite && thumb.maxX == 200)
    }
}
