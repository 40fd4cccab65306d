/// A value kept within a range whose ends can move: the rules UISlider
/// (`Float`) and UIStepper (`Double`) share for `value`, `minimumValue`
/// and `maximumValue`, and UIProgressView for its fixed 0…1.
///
/// - The value is pinned into the range; NaN is refused (it stays as it was).
/// - An end that is not finite is refused. Moving the minimum above the
///   maximum moves the maximum with it, and the other way round (Apple's
///   documented rule for both controls); the value is pinned again.
struct BoundedValue<Value: BinaryFloatingPoint> {
    private(set) var value: Value
    private(set) var minimum: Value
    private(set) var maximum: Value

    /// - Precondition: `minimum` ≤ `maximum`, both finite.
    init(_ value: Value, in range: ClosedRange<Value>) {
        precondition(range.lowerBound.isFinite && range.upperBound.isFinite, "a bounded value's range must be finite")
        minimum = range.lowerBound
        maximum = range.upperBound
        self.value = min(max(value, minimum), maximum)
    }

    mutating func setValue(_ newValue: Value) {
        guard !newValue.isNaN else { return }
        value = min(max(newValue, minimum), maximum)
    }

    mutating func setMinimum(_ newMinimum: Value) {
        guard newMinimum.isFinite else { return }
        minimum = newMinimum
        if maximum < minimum { maximum = minimum }
        setValue(value)
    }

    mutating func setMaximum(_ newMaximum: Value) {
        guard newMaximum.isFinite else { return }
        maximum = newMaximum
        if minimum > maximum { minimum = maximum }
        setValue(value)
    }
}
