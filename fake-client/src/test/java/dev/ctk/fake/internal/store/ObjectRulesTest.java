package dev.ctk.fake.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.controller.VirtualTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link ObjectRules#now}: kube's timestamps, whole seconds in UTC, right as the clock moves. */
class ObjectRulesTest {

  @Test
  void now_is_the_clock_s_whole_second_in_rfc3339_within_a_second_and_after_it() {
    // GIVEN a clock a tenth of a second into a second
    VirtualTime time = VirtualTime.startingAt(Instant.parse("2026-11-27T10:00:00.100Z"));
    ObjectRules rules = new ObjectRules(new NameGenerator(1L), time.clock());
    List<String> stamps = new ArrayList<>();
    // WHEN it ticks within the second, to the next one exactly, and a minute on
    stamps.add(rules.now());
    time.advance(Duration.ofMillis(800));
    stamps.add(rules.now());
    time.advance(Duration.ofMillis(100));
    stamps.add(rules.now());
    time.advance(Duration.ofSeconds(59).plusMillis(999));
    stamps.add(rules.now());
    // THEN
    assertThat(stamps).containsExactly("2026-11-27T10:00:00Z", "2026-11-27T10:00:00Z", "2026-11-27T10:00:01Z",
        "2026-11-27T10:01:00Z");
  }
}
