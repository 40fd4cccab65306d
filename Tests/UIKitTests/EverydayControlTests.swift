import DrawingTestSupport
import TestExpectations
import Testing
@testable import UIKit

// The everyday controls: segmented controls, steppers, progress views,
// activity indicators and page controls. Touch rules through the real
// input path (TouchSynthesizer), values and their limits, and pixels.

/// A window with `control` at `frame` in a plain container, a log of its
/// events and a synthesizer.
@MainActor
private func scene<Control: UIView>(_ control: Control, at frame: CGRect) -> (Control, CallLog, TouchSynthesizer, UIView) {
    let window = makeWindow()
    let container = UIView(frame: CGRect(x: 0, y: 0, width: 400, height: 300))
    window.addSubview(container)
    control.frame = frame
    container.addSubview(control)
    let log = CallLog()
    if let control = control as? UIControl { recordControlEvents(of: control, into: log) }
    return (control, log, TouchSynthesizer(window: window), container)
}

@MainActor
@Suite struct SegmentedControlTests {
    /// Three segments 100 points wide at (50, 100).
    private func segmented(_ items: [Any] = ["One", "Two", "Three"]) -> (UISegmentedControl, CallLog, TouchSynthesizer, UIView) {
        scene(UISegmentedControl(items: items), at: CGRect(x: 50, y: 100, width: 300, height: 32))
    }

    @Test func aSegmentIsSelectedWhenTheFingerLiftsOverIt() {
        let (control, log, synthesizer, _) = segmented()
        #expect(control.numberOfSegments == 3 && control.selectedSegmentIndex == UISegmentedControl.noSegment)
        let finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 116))
        #expect(log.entries == ["touchDown"] && control.selectedSegmentIndex == UISegmentedControl.noSegment, "not on touch down")
        synthesizer.touchUp(finger)
        expectEqual(log.entries, ["touchDown", "valueChanged", "upInside"])
        expectEqual(control.selectedSegmentIndex, 1)
        log.clear()
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 210, y: 116))
        expectEqual(log.entries, ["touchDown", "upInside"], "the selected segment again: no change")
    }

    @Test func theSelectionFollowsASlideAndALiftOutsideChangesNothing() {
        let (control, log, synthesizer, _) = segmented()
        control.selectedSegmentIndex = 0
        var finger = synthesizer.touchDown(at: CGPoint(x: 100, y: 116))
        synthesizer.touchMove(finger, to: CGPoint(x: 200, y: 116))
        synthesizer.touchMove(finger, to: CGPoint(x: 300, y: 120))
        synthesizer.touchUp(finger)
        expectEqual(control.selectedSegmentIndex, 2)
        expectEqual(log.entries.filter { $0 == "valueChanged" }.count, 1)
        log.clear()
        finger = synthesizer.touchDown(at: CGPoint(x: 100, y: 116))
        synthesizer.touchMove(finger, to: CGPoint(x: 100, y: 290))
        synthesizer.touchUp(finger)
        #expect(control.selectedSegmentIndex == 2 && !log.entries.contains("valueChanged"), "\(log.entries)")
    }

    @Test func aMomentaryControlReportsEachTapAndKeepsNoSelection() {
        let (control, log, synthesizer, _) = segmented()
        control.isMomentary = true
        var seen: [Int] = []
        control.addAction(UIAction { _ in seen.append(control.selectedSegmentIndex) }, for: .valueChanged)
        synthesizer.tap(at: CGPoint(x: 300, y: 116))
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 300, y: 116))
        expectEqual(seen, [2, 2], "the tapped segment while the actions run, every time")
        expectEqual(control.selectedSegmentIndex, UISegmentedControl.noSegment)
        expectEqual(log.entries.filter { $0 == "valueChanged" }.count, 2)
    }

    @Test func segmentsAreInsertedRemovedAndDisabled() {
        let (control, log, synthesizer, _) = segmented()
        control.selectedSegmentIndex = 1
        control.insertSegment(withTitle: "Zero", at: 0, animated: false)
        #expect(control.numberOfSegments == 4 && control.selectedSegmentIndex == 2 && control.titleForSegment(at: 0) == "Zero")
        control.insertSegment(withTitle: "Last", at: 99, animated: false)
        expectEqual(control.titleForSegment(at: 4), "Last")
        control.removeSegment(at: 2, animated: false)
        #expect(control.selectedSegmentIndex == UISegmentedControl.noSegment && control.titleForSegment(at: 2) == "Three")
        control.removeSegment(at: 9, animated: false)
        control.selectedSegmentIndex = 7
        #expect(control.numberOfSegments == 4 && control.selectedSegmentIndex == UISegmentedControl.noSegment)
        let star = UIImage(systemName: "star")!
        control.setImage(star, forSegmentAt: 1)
        #expect(control.imageForSegment(at: 1) == star && control.titleForSegment(at: 1) == nil)
        control.setEnabled(false, forSegmentAt: 3)
        synthesizer.tap(at: CGPoint(x: 330, y: 116))
        #expect(log.entries.isEmpty && control.selectedSegmentIndex == UISegmentedControl.noSegment, "a disabled segment is not tracked")
        control.removeAllSegments()
        expectEqual(control.numberOfSegments, 0)
    }

    @Test func theSelectedSegmentSitsOnAThumbOverTheTrack() {
        let (control, _, _, container) = segmented()
        var picture = snapshot(container)
        let track = overWhite(.tertiarySystemFill)
        #expect(close(pixel(picture, at: CGPoint(x: 58, y: 116)), track, tolerance: 2), "no selection: all track")
        control.selectedSegmentIndex = 0
        picture = snapshot(container)
        expectEqual(pixel(picture, at: CGPoint(x: 58, y: 116)), [255, 255, 255, 255], "the white thumb")
        #expect(close(pixel(picture, at: CGPoint(x: 158, y: 116)), track, tolerance: 2))
        control.selectedSegmentTintColor = .systemRed
        picture = snapshot(container)
        expectEqual(pixel(picture, at: CGPoint(x: 58, y: 116)), overWhite(.systemRed))
        expectEqual(control.intrinsicContentSize.height, ControlMetrics.segmentedControlHeight)
    }
}

@MainActor
@Suite struct StepperTests {
    /// A stepper at (100, 100): − on x 100…147, + on x 147…194.
    private func stepper() -> (UIStepper, CallLog, TouchSynthesizer, UIView) {
        scene(UIStepper(frame: .zero), at: CGRect(x: 100, y: 100, width: 10, height: 10))
    }

    @Test func aTapStepsOnceAsTheFingerLands() {
        let (stepper, log, synthesizer, _) = stepper()
        expectEqual(stepper.frame.size, ControlMetrics.stepperSize)
        synthesizer.tap(at: CGPoint(x: 170, y: 116))
        #expect(stepper.value == 1 && log.entries == ["valueChanged", "touchDown", "upInside"])
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 120, y: 116))
        expectEqual(stepper.value, 0)
    }

    @Test func holdingRepeatsOnTheRunLoopsTimers() {
        let (stepper, log, synthesizer, _) = stepper()
        let finger = synthesizer.touchDown(at: CGPoint(x: 170, y: 116))
        synthesizer.advance(by: 0.45)
        expectEqual(stepper.value, 1, "nothing more before the delay")
        synthesizer.advance(by: 0.1)
        expectEqual(stepper.value, 2, "the first repeat at 0.5 s")
        synthesizer.advance(by: 0.3)
        expectEqual(stepper.value, 5, "then every 0.1 s")
        synthesizer.touchUp(finger)
        synthesizer.advance(by: 1)
        #expect(stepper.value == 5 && log.entries.filter { $0 == "valueChanged" }.count == 5)
        stepper.autorepeat = false
        let second = synthesizer.touchDown(at: CGPoint(x: 170, y: 116))
        synthesizer.advance(by: 2)
        synthesizer.touchUp(second)
        expectEqual(stepper.value, 6)
    }

    @Test func aStepperThatIsNotContinuousReportsOnceWhenTheFingerLifts() {
        let (stepper, log, synthesizer, _) = stepper()
        stepper.isContinuous = false
        stepper.stepValue = 2.5
        let finger = synthesizer.touchDown(at: CGPoint(x: 170, y: 116))
        synthesizer.advance(by: 0.75)
        #expect(stepper.value == 10 && log.entries == ["touchDown"])
        synthesizer.touchUp(finger)
        expectEqual(log.entries, ["touchDown", "valueChanged", "upInside"])
    }

    @Test func theLimitsStopOrWrap() {
        let (stepper, log, synthesizer, _) = stepper()
        stepper.maximumValue = 3
        stepper.value = 3
        synthesizer.tap(at: CGPoint(x: 170, y: 116))
        #expect(stepper.value == 3 && log.entries.isEmpty, "+ at the maximum is not tracked")
        synthesizer.advance(by: 1)
        stepper.wraps = true
        synthesizer.tap(at: CGPoint(x: 170, y: 116))
        expectEqual(stepper.value, 0, "past the maximum: the minimum")
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 120, y: 116))
        expectEqual(stepper.value, 3, "past the minimum: the maximum")
        stepper.value = .nan
        stepper.stepValue = 0
        stepper.stepValue = -1
        stepper.minimumValue = .infinity
        #expect(stepper.value == 3 && stepper.stepValue == 1 && stepper.minimumValue == 0)
        stepper.minimumValue = 10
        #expect(stepper.maximumValue == 10 && stepper.value == 10, "both become the new value")
    }

    @Test func aHalfThatCannotStepIsGreyed() {
        let (_, _, _, container) = stepper()
        let picture = snapshot(container)
        let minusCentre = CGPoint(x: 100 + 23.5, y: 116), plusCentre = CGPoint(x: 100 + 70.5, y: 116)
        expectEqual(pixel(picture, at: plusCentre), [0, 0, 0, 255], "+ in the label colour")
        // tertiaryLabel (#3C3C43 at 30 %) over the track over white: about 185.
        let minus = pixel(picture, at: minusCentre)
        #expect(minus[0] > 170 && minus[0] < 200, "− in a light grey at the minimum: \(minus)")
    }
}

@MainActor
@Suite struct ProgressAndActivityTests {
    @Test func aProgressViewFillsUpToItsProgress() {
        let (progress, _, _, container) = scene(UIProgressView(progressViewStyle: .default), at: CGRect(x: 50, y: 50, width: 200, height: 20))
        progress.setProgress(0.25, animated: true)
        var picture = snapshot(container)
        expectEqual(pixel(picture, at: CGPoint(x: 60, y: 60)), overWhite(.systemBlue))
        #expect(close(pixel(picture, at: CGPoint(x: 150, y: 60)), overWhite(.systemFill), tolerance: 2))
        expectEqual(pixel(picture, at: CGPoint(x: 150, y: 57)), [255, 255, 255, 255], "4 points high, centred")
        progress.progress = 2
        expectEqual(progress.progress, 1)
        progress.progress = .nan
        expectEqual(progress.progress, 1)
        progress.progress = 0.5
        progress.progressTintColor = .systemGreen
        progress.trackTintColor = .black
        picture = snapshot(container)
        expectEqual(pixel(picture, at: CGPoint(x: 140, y: 60)), overWhite(.systemGreen))
        expectEqual(pixel(picture, at: CGPoint(x: 160, y: 60)), [0, 0, 0, 255])
        expectEqual(progress.sizeThatFits(CGSize(width: 90, height: 90)), CGSize(width: 90, height: ControlMetrics.progressViewHeight))
    }

    @Test func anActivityIndicatorSpinsByTheDisplaysTimingAndHidesWhenStopped() {
        let indicator = UIActivityIndicatorView(style: .large)
        expectEqual(indicator.bounds.size, CGSize(width: 37, height: 37))
        #expect(indicator.isHidden && !indicator.isAnimating)
        let (_, _, synthesizer, _) = scene(indicator, at: CGRect(x: 100, y: 100, width: 37, height: 37))
        indicator.startAnimating()
        #expect(!indicator.isHidden && indicator.isAnimating)
        synthesizer.advance(by: 0.02)
        expectEqual(indicator.leadingSpoke, 0)
        synthesizer.advance(by: 0.55)
        expectEqual(indicator.leadingSpoke, 4, "an eighth of a turn every 1/8 s")
        synthesizer.advance(by: 0.5)
        expectEqual(indicator.leadingSpoke, 0, "a turn a second")
        indicator.stopAnimating()
        #expect(indicator.isHidden && !indicator.isAnimating)
        synthesizer.advance(by: 0.25)
        expectEqual(indicator.leadingSpoke, 0, "stopped")
        indicator.hidesWhenStopped = false
        #expect(!indicator.isHidden)
        indicator.style = .medium
        #expect(indicator.bounds.size == CGSize(width: 20, height: 20) && indicator.center == CGPoint(x: 118.5, y: 118.5))
    }

    @Test func theLeadingSpokeIsTheDarkest() {
        let (indicator, _, _, container) = scene(UIActivityIndicatorView(style: .large), at: CGRect(x: 100, y: 100, width: 37, height: 37))
        indicator.color = .black
        indicator.hidesWhenStopped = false
        // The top spoke leads: it is darker than the one to its left.
        let picture = snapshot(container)
        let top = pixel(picture, at: CGPoint(x: 118.5, y: 100 + 18.5 - 37 * 0.33))
        let left = pixel(picture, at: CGPoint(x: 118.5 - 37 * 0.33, y: 118.5))
        #expect(top[0] < 40 && left[0] > top[0] + 30, "top \(top), left \(left)")
    }
}

@MainActor
@Suite struct PageControlTests {
    @Test func aTapBesideTheCurrentDotMovesOnePage() {
        let pages = UIPageControl(frame: .zero)
        pages.numberOfPages = 5
        let (_, log, synthesizer, _) = scene(pages, at: CGRect(x: 50, y: 100, width: 300, height: 26))
        expectEqual(pages.currentPage, 0)
        synthesizer.tap(at: CGPoint(x: 340, y: 113))
        #expect(pages.currentPage == 1 && log.entries == ["touchDown", "valueChanged", "upInside"])
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 340, y: 113))
        expectEqual(pages.currentPage, 2, "one page at a time, however far right")
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 60, y: 113))
        expectEqual(pages.currentPage, 1)
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 60, y: 113))
        log.clear()
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 60, y: 113))
        #expect(pages.currentPage == 0 && log.entries == ["touchDown", "upInside"], "no page before the first")
    }

    @Test func theCurrentPageIsPinnedAndDrawnDarker() {
        let pages = UIPageControl(frame: .zero)
        pages.numberOfPages = 3
        pages.currentPage = 7
        expectEqual(pages.currentPage, 2)
        pages.currentPage = -1
        expectEqual(pages.currentPage, 0)
        pages.currentPage = 2
        pages.numberOfPages = 2
        expectEqual(pages.currentPage, 1)
        let (_, _, _, container) = scene(pages, at: CGRect(x: 50, y: 100, width: 300, height: 26))
        let size = pages.size(forNumberOfPages: 2)
        expectEqual(size, CGSize(width: 8 + 9 + 8 + 24, height: 26))
        let picture = snapshot(container)
        // Two dots centred: at x 200 ∓ 8.5.
        expectEqual(pixel(picture, at: CGPoint(x: 208.5, y: 113)), [0, 0, 0, 255], "the current page in the label colour")
        #expect(close(pixel(picture, at: CGPoint(x: 191.5, y: 113)), overWhite(.tertiaryLabel), tolerance: 2))
        pages.hidesForSinglePage = true
        pages.numberOfPages = 1
        expectEqual(pixel(snapshot(container), at: CGPoint(x: 200, y: 113)), [255, 255, 255, 255])
    }
}

@MainActor
@Suite struct EverydayControlPictureTests {
    /// Segmented controls, steppers, progress views, activity indicators
    /// and page controls in their states, drawn through the view tree.
    @Test func everydayControlsInTheirStates() {
        let window = makeWindow()
        let sheet = UIView(frame: CGRect(x: 0, y: 0, width: 330, height: 330))
        window.addSubview(sheet)
        func place(_ view: UIView, _ frame: CGRect) {
            view.frame = frame
            sheet.addSubview(view)
        }
        let plain = UISegmentedControl(items: ["One", "Two", "Three"])
        plain.selectedSegmentIndex = 1
        place(plain, CGRect(x: 10, y: 10, width: 200, height: 32))
        let momentary = UISegmentedControl(items: ["Day", "Week"])
        momentary.isMomentary = true
        place(momentary, CGRect(x: 220, y: 10, width: 100, height: 32))
        let images = UISegmentedControl(items: [UIImage(systemName: "star")!, UIImage(systemName: "heart.fill")!, "Text"])
        images.selectedSegmentIndex = 0
        images.selectedSegmentTintColor = .systemYellow
        place(images, CGRect(x: 10, y: 52, width: 200, height: 32))
        let disabled = UISegmentedControl(items: ["Off", "On"])
        disabled.selectedSegmentIndex = 1
        disabled.isEnabled = false
        place(disabled, CGRect(x: 220, y: 52, width: 100, height: 32))
        let steppers: [(UIStepper) -> Void] = [
            { _ in },
            { $0.value = 50 },
            { $0.value = 100 },
            { $0.value = 50; $0.isEnabled = false },
        ]
        for (n, configure) in steppers.enumerated() {
            let stepper = UIStepper(frame: .zero)
            configure(stepper)
            place(stepper, CGRect(x: 10 + 104 * CGFloat(n % 3), y: 96 + 42 * CGFloat(n / 3), width: 0, height: 0))
        }
        let progresses: [(UIProgressView) -> Void] = [
            { $0.progress = 0 },
            { $0.progress = 0.3 },
            { $0.progress = 1 },
            { $0.progress = 0.6; $0.progressTintColor = .systemOrange; $0.trackTintColor = .systemGray3 },
            { $0.progress = 0.6; $0.progressViewStyle = .bar },
        ]
        for (n, configure) in progresses.enumerated() {
            let progress = UIProgressView(progressViewStyle: .default)
            configure(progress)
            place(progress, CGRect(x: 10 + 160 * CGFloat(n % 2), y: 184 + 16 * CGFloat(n / 2), width: 150, height: 10))
        }
        let spinners: [UIActivityIndicatorView] = [
            UIActivityIndicatorView(style: .medium), UIActivityIndicatorView(style: .large), UIActivityIndicatorView(style: .large),
        ]
        spinners[2].color = .systemPurple
        for (n, spinner) in spinners.enumerated() {
            spinner.hidesWhenStopped = false
            place(spinner, CGRect(origin: CGPoint(x: 10 + 50 * CGFloat(n), y: 240), size: spinner.bounds.size))
        }
        let pageControls: [(UIPageControl) -> Void] = [
            { $0.numberOfPages = 5 },
            { $0.numberOfPages = 5; $0.currentPage = 2 },
            { $0.numberOfPages = 3; $0.currentPage = 1; $0.currentPageIndicatorTintColor = .systemBlue; $0.pageIndicatorTintColor = .systemGray4 },
        ]
        for (n, configure) in pageControls.enumerated() {
            let pages = UIPageControl(frame: .zero)
            configure(pages)
            place(pages, CGRect(x: 160 + 0 * CGFloat(n), y: 236 + 28 * CGFloat(n), width: 160, height: 26))
        }
        expectMatchesReference(snapshot(sheet), named: "controls-everyday", tolerance: 3)
    }
}
