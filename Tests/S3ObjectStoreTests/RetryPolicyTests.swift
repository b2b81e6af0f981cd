import S3ObjectStore
import Testing

@Suite("S3RetryPolicy: exponential backoff with full jitter")
struct RetryPolicyTests {
    @Test("the ceiling doubles each attempt up to the longest wait; the jitter takes a part of it")
    func delays() {
        let top = S3RetryPolicy(baseDelay: .milliseconds(100), maxDelay: .seconds(1), random: { 0.999_999 })
        let ceilings = (1...6).map { top.delay(afterAttempt: $0) }
        #expect(ceilings[0] > .milliseconds(99) && ceilings[0] <= .milliseconds(100))
        #expect(ceilings[1] > .milliseconds(199) && ceilings[1] <= .milliseconds(200))
        #expect(ceilings[3] > .milliseconds(799) && ceilings[3] <= .milliseconds(800))
        #expect(ceilings[4] > .milliseconds(999) && ceilings[4] <= .seconds(1))
        #expect(ceilings[5] <= .seconds(1))
        let bottom = S3RetryPolicy(random: { 0 })
        #expect(bottom.delay(afterAttempt: 3) == .zero)
        let half = S3RetryPolicy(baseDelay: .milliseconds(100), random: { 0.5 })
        #expect(half.delay(afterAttempt: 2) == .milliseconds(100))
        #expect(S3RetryPolicy(random: { 7 }).delay(afterAttempt: 1) == .milliseconds(100), "the jitter is clamped")
        #expect(top.delay(afterAttempt: 10_000) <= .seconds(1), "no overflow for a large attempt")
    }

    @Test("Retry-After raises the wait, within the longest wait")
    func retryAfter() {
        let policy = S3RetryPolicy(maxDelay: .seconds(5), random: { 0.5 })
        #expect(policy.delay(afterAttempt: 1, retryAfter: .seconds(2)) == .seconds(2))
        #expect(policy.delay(afterAttempt: 1, retryAfter: .seconds(60)) == .seconds(5))
        #expect(policy.delay(afterAttempt: 1, retryAfter: .zero) == .milliseconds(50))
        #expect(S3RetryPolicy.none.maxAttempts == 1)
    }

    @Test("the jitter spreads retries: the system's random waits differ")
    func jitterDiffers() {
        let policy = S3RetryPolicy()
        let waits = Set((0..<20).map { _ in policy.delay(afterAttempt: 4) })
        #expect(waits.count > 1)
        #expect(waits.allSatisfy { $0 >= .zero && $0 <= .milliseconds(800) })
    }
}
