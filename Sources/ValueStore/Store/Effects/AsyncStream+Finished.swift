extension AsyncStream {
  /// A stream that ends at once, without elements: a dependency's endpoint that has nothing to
  /// say, as swift-concurrency-extras' `AsyncStream.finished`.
  ///
  /// ```swift
  /// $0.notifications.updates = { .finished }   // the feature's `for await` loop ends at once
  /// ```
  public static var finished: Self {
    Self { $0.finish() }
  }

  /// A stream that never produces an element and never ends: iterating it waits until the
  /// iterating task is cancelled, then ends. swift-concurrency-extras' `AsyncStream.never`.
  ///
  /// ```swift
  /// $0.notifications.updates = { .never }   // the feature's loop waits until it is cancelled
  /// ```
  public static var never: Self {
    Self { _ in }
  }
}

extension AsyncThrowingStream where Failure == any Error {
  /// A stream that ends at once, without elements, by throwing `error` or (`nil`) normally, as
  /// swift-concurrency-extras' `AsyncThrowingStream.finished(throwing:)`.
  ///
  /// ```swift
  /// $0.speech.transcripts = { _ in .finished() }                        // ends normally
  /// $0.speech.transcripts = { _ in .finished(throwing: SpeechError()) } // throws at the first `next()`
  /// ```
  public static func finished(throwing error: Failure? = nil) -> Self {
    Self { $0.finish(throwing: error) }
  }

  /// A stream that never produces an element and never ends: iterating it waits until the
  /// iterating task is cancelled, then ends. swift-concurrency-extras' `AsyncThrowingStream.never`.
  ///
  /// ```swift
  /// $0.speech.transcripts = { _ in .never }
  /// ```
  public static var never: Self {
    Self { _ in }
  }
}
