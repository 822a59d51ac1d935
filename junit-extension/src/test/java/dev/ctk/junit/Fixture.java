package dev.ctk.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Marks a fixture class: a test class that only {@link EngineRuns} runs, through EngineTestKit, to
 * test the extension. Surefire excludes the tag ({@code excludedGroups} in this module's pom), so a
 * run selected with {@code -Dtest=dev.ctk.junit.**}, which would otherwise pick up nested classes,
 * does not run fixtures on their own (several are meant to fail).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Tag(Fixture.TAG)
@interface Fixture {

  /** The tag Surefire excludes. */
  String TAG = "ctk-fixture";
}
