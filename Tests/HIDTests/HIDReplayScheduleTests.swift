import TestExpectations
import Testing
import HID

private func tap(_ time: Double, _ phase: DigitizerContact.Phase) -> HIDEvent {
    .digitizer(DigitizerFrame(timestamp: time, contacts: [DigitizerContact(identifier: 1, phase: phase, x: 10, y: 10)]))
}

private let recorded = [tap(50.0, .began), tap(50.1, .moved), tap(50.3, .ended)]

@Suite struct HIDReplayScheduleTests {
    @Test func recordedTimingSpacesEventsAsRecordedFromTheStart() {
        var schedule = HIDReplaySchedule(events: recorded, timing: .recorded(speed: 1), start: 1000)
        expectEqual(schedule.nextDueTime, 1000)
        #expect(schedule.take(dueAt: 999.9).isEmpty)
        expectEqual(schedule.take(dueAt: 1000).map(\.timestamp), [1000])
        #expect(abs(schedule.nextDueTime! - 1000.1) < 1e-9)
        #expect(schedule.take(dueAt: 1000.05).isEmpty)
        let rest = schedule.take(dueAt: 1001)
        expectEqual(rest.count, 2)
        #expect(abs(rest[1].timestamp - 1000.3) < 1e-9)
        #expect(schedule.isFinished)
        #expect(schedule.nextDueTime == nil)
    }

    @Test func aSpeedFactorDividesTheIntervals() {
        var schedule = HIDReplaySchedule(events: recorded, timing: .recorded(speed: 3), start: 0)
        let all = schedule.take(dueAt: 1)
        expectEqual(all.map { ($0.timestamp * 1000).rounded() / 1000 }, [0, 0.033, 0.1])
    }

    @Test func asFastAsPossibleIsDueAtOnceAndKeepsTheRecordedIntervals() {
        var schedule = HIDReplaySchedule(events: recorded, timing: .asFastAsPossible, start: 7)
        expectEqual(schedule.nextDueTime, 7)
        let first = schedule.take(dueAt: 7, limit: 2)
        expectEqual(first.count, 2)
        expectEqual(schedule.remainingCount, 1)
        let last = schedule.take(dueAt: 7)
        expectEqual((first + last).map { ($0.timestamp * 1000).rounded() / 1000 }, [7, 7.1, 7.3])
    }

    @Test func timestampsThatGoBackOrAreNotFiniteAreHeld() {
        let events = [tap(5, .began), tap(4, .moved), tap(.nan, .moved), tap(6, .ended)]
        var schedule = HIDReplaySchedule(events: events, timing: .recorded(speed: 1), start: 100)
        expectEqual(schedule.take(dueAt: 100).map(\.timestamp), [100, 100, 100])
        expectEqual(schedule.take(dueAt: 101).map(\.timestamp), [101])
    }

    @Test func eventsGivenAsTheyAreReadPlayAsIfGivenAtOnce() {
        let events = [tap(.nan, .began)] + recorded + [tap(49, .moved)]
        var whole = HIDReplaySchedule(events: events, timing: .recorded(speed: 2), start: 10)
        var streamed = HIDReplaySchedule(timing: .recorded(speed: 2), start: 10)
        var played: [HIDEvent] = []
        for event in events {
            #expect(!streamed.isFinished)
            streamed.append([event])
            played += streamed.take(dueAt: 100, limit: 1)
        }
        // Everything given has been taken, but more may come.
        #expect(streamed.nextDueTime == nil)
        #expect(!streamed.isFinished)
        streamed.endOfEvents()
        #expect(streamed.isFinished)
        expectEqual(played, whole.take(dueAt: 100))
        expectEqual(played.map { ($0.timestamp * 1000).rounded() / 1000 }, [10, 10, 10.05, 10.15, 10.15])
    }

    @Test func onlyFinitePositiveSpeedsAreValid() {
        #expect(HIDReplaySchedule.isValid(0.5))
        #expect(!HIDReplaySchedule.isValid(0))
        #expect(!HIDReplaySchedule.isValid(-1))
        #expect(!HIDReplaySchedule.isValid(.infinity))
        #expect(!HIDReplaySchedule.isValid(.nan))
    }

    @Test func retimingChangesOnlyTheTimestamp() {
        let button = HIDEvent.button(ButtonEvent(timestamp: 1, usagePage: 7, usage: 4, isDown: true))
        expectEqual(button.retimed(to: 2), .button(ButtonEvent(timestamp: 2, usagePage: 7, usage: 4, isDown: true)))
        let shake = HIDEvent.motion(MotionEvent(timestamp: 1, kind: .shake, phase: .ended))
        expectEqual(shake.retimed(to: 3).timestamp, 3)
    }
}
