// The samples behind one delivery of a touch, and the samples predicted
// after it (`UIEvent.coalescedTouches(for:)` and
// `UIEvent.predictedTouches(for:)`).
//
// Touch moves reach views once per frame: at the display's refresh when
// the application is connected to an event server, else once per run-loop
// turn (see `UIApplication`'s event source): a touch screen that scans faster than the display refreshes
// reports several samples of a finger between two refreshes, and the
// touch delivered stands for the last of them. The others are kept here:
//
// 1. A delivery that coalesces several frames records, per touch, every
//    sample in which it moved, in order (`UITouch.coalescedSamples`);
//    a delivery of one frame records nothing, and the touch itself is
//    its one sample.
// 2. `coalescedTouches(for:)` turns the samples into touch objects the
//    touch keeps and reuses from event to event (no allocation once they
//    exist): each has the touch's view, window, type and tap count, and
//    the sample's location, previous location (the sample before it),
//    time, phase, radius and force. The last one is a copy of the touch.
// 3. `predictedTouches(for:)` extrapolates one sample ahead from the
//    touch's last two samples, as Android's input resampler does
//    (``TouchPrediction``).
//
// Apple says the coalesced touches are to be read while the event is
// handled, with no promise that they stay the same afterwards; the same
// goes for the predicted ones. Copy what you keep.

/// One sample of a touch that a delivery coalesced, in screen points.
struct CoalescedTouchSample {
    let location: CGPoint
    let previousLocation: CGPoint
    let timestamp: TimeInterval
    let majorRadius: CGFloat
    let majorRadiusTolerance: CGFloat
    let force: CGFloat
    let maximumPossibleForce: CGFloat
}

/// How far ahead a touch is predicted, after Android's input resampler:
/// `InputConsumer::resampleTouchState` in AOSP's
/// frameworks/native/libs/input/InputTransport.cpp (InputConsumer.cpp in
/// recent releases) extrapolates from the last two samples, only when they
/// are between `RESAMPLE_MIN_DELTA` (2 ms) and `RESAMPLE_MAX_DELTA` (20 ms)
/// apart, and never further than `RESAMPLE_MAX_PREDICTION` (8 ms) nor half
/// the interval between those samples beyond the last one. Android moves
/// the delivered position to the frame's time less 5 ms
/// (`RESAMPLE_LATENCY`); a predicted touch is for where the finger will be
/// when the frame being drawn is shown, one refresh later, which is further
/// ahead than the caps allow, so the prediction here goes as far as they do.
enum TouchPrediction {
    /// `RESAMPLE_MIN_DELTA`: closer samples give no usable velocity.
    static let minimumSampleInterval: TimeInterval = 0.002
    /// `RESAMPLE_MAX_DELTA`: samples further apart are too old to extrapolate.
    static let maximumSampleInterval: TimeInterval = 0.020
    /// `RESAMPLE_MAX_PREDICTION`.
    static let maximumLookAhead: TimeInterval = 0.008

    /// How far past the last sample to predict, for samples `interval`
    /// seconds apart; nil when no prediction is made.
    static func lookAhead(forSampleInterval interval: TimeInterval) -> TimeInterval? {
        guard interval >= minimumSampleInterval, interval <= maximumSampleInterval else { return nil }
        return min(interval / 2, maximumLookAhead)
    }
}

/// The touch objects a touch hands out for its samples, kept from event
/// to event so that asking again allocates nothing.
@MainActor
final class SampleTouchPool {
    var coalesced: [UITouch] = []
    /// The last list handed out, whose storage the next one reuses when
    /// nobody kept it.
    var list: [UITouch] = []
    var predicted: UITouch?
}

extension UITouch {
    /// The touch objects standing for the samples of its latest delivery,
    /// oldest first, the last a copy of the touch (point 2 above).
    func makeCoalescedTouches() -> [UITouch] {
        let pool = samplePool
        var list: [UITouch] = []
        swap(&list, &pool.list)
        list.removeAll(keepingCapacity: true)
        if let last = coalescedSamples.last, last.location == screenLocation, last.timestamp == timestamp {
            for index in coalescedSamples.indices {
                let sample = coalescedSamples[index]
                let copy = pool.touch(at: index, for: self)
                copy.copyState(of: self)
                copy.phase = .moved
                copy.screenLocation = sample.location
                copy.previousScreenLocation = sample.previousLocation
                copy.timestamp = sample.timestamp
                copy.majorRadius = sample.majorRadius
                copy.majorRadiusTolerance = sample.majorRadiusTolerance
                copy.force = sample.force
                copy.maximumPossibleForce = sample.maximumPossibleForce
                list.append(copy)
            }
        } else {
            // One sample: the touch as delivered (also while a phase held
            // back from its view is shown, which the samples do not describe).
            let copy = pool.touch(at: 0, for: self)
            copy.copyState(of: self)
            list.append(copy)
        }
        pool.list = list
        return list
    }

    /// The touches predicted to follow this one (point 3 above): one, for
    /// a touch that moved at a usable pace, none otherwise.
    func makePredictedTouches() -> [UITouch] {
        let interval = timestamp - priorSampleTimestamp
        guard phase == .moved, let lookAhead = TouchPrediction.lookAhead(forSampleInterval: interval) else { return [] }
        let pool = samplePool
        let predicted = pool.predicted ?? UITouch(fingerIdentifier: fingerIdentifier)
        pool.predicted = predicted
        predicted.copyState(of: self)
        // The velocity of the last two samples, carried `lookAhead` further.
        let scale = lookAhead / interval
        predicted.screenLocation = CGPoint(
            x: screenLocation.x + (screenLocation.x - priorSampleLocation.x) * scale,
            y: screenLocation.y + (screenLocation.y - priorSampleLocation.y) * scale)
        predicted.previousScreenLocation = screenLocation
        predicted.timestamp = timestamp + lookAhead
        return [predicted]
    }

    private var samplePool: SampleTouchPool {
        if let sampleTouchPool { return sampleTouchPool }
        let pool = SampleTouchPool()
        sampleTouchPool = pool
        return pool
    }

    /// Takes `touch`'s public state: what a coalesced or predicted touch
    /// shares with the touch it stands for.
    fileprivate func copyState(of touch: UITouch) {
        phase = touch.phase
        timestamp = touch.timestamp
        tapCount = touch.tapCount
        type = touch.type
        majorRadius = touch.majorRadius
        majorRadiusTolerance = touch.majorRadiusTolerance
        force = touch.force
        maximumPossibleForce = touch.maximumPossibleForce
        view = touch.view
        window = touch.window
        screenLocation = touch.screenLocation
        previousScreenLocation = touch.previousScreenLocation
    }
}

extension SampleTouchPool {
    /// The touch kept for the sample at `index` of `owner`, made the first time.
    fileprivate func touch(at index: Int, for owner: UITouch) -> UITouch {
        while coalesced.count <= index { coalesced.append(UITouch(fingerIdentifier: owner.fingerIdentifier)) }
        return coalesced[index]
    }
}
