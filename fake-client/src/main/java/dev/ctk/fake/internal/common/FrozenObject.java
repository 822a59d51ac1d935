package dev.ctk.fake.internal.common;

/**
 * A JSON object that is never modified once published (a stored version), so that one serialization of it can serve
 * every reader that writes it whole: a write's watch events and its answer.
 */
public interface FrozenObject {

  /**
   * This object's JSON as the fake's answers write a tree: UTF-8, a character outside the Basic Multilingual Plane
   * as its four bytes (as Go's {@code encoding/json} writes it), not as an escaped surrogate pair. Do not modify the
   * array.
   *
   * @return the UTF-8 bytes
   */
  byte[] json();
}
