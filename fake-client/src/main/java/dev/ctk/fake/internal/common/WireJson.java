package dev.ctk.fake.internal.common;

import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The one JSON writer of the fake's answers, its stored versions' kept bytes and its size checks, so that every path
 * writes an object alike. Where Jackson's default differs from Go's {@code encoding/json}, it writes as Go does: a
 * character outside the Basic Multilingual Plane as its four UTF-8 bytes, not as an escaped surrogate pair.
 *
 * <p>Limits: a lone surrogate (malformed text) is still written as an escape (<code>&#92;ud83d</code>), where Go
 * writes the replacement character.
 */
public final class WireJson {

  /** The writer (configured once; never reconfigure it). */
  public static final ObjectMapper MAPPER = JsonMapper.builder()
      .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
      .build();

  private WireJson() {}
}
