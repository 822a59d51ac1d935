package dev.ctk.fake.internal.common;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Boolean query parameters read as kube's {@code Convert_Slice_string_To_bool}: only 0 and false are false. */
class QueryBooleanTest {

  @ParameterizedTest(name = "\"{0}\" is {1}")
  @CsvSource(value = {"<absent>,false", "0,false", "false,false", "FALSE,false", "False,false", "'',true", "1,true",
      "true,true", "t,true", "f,true", "no,true", "n,true", "anything,true"}, nullValues = "<absent>")
  void readsAsKubeDoes(String value, boolean expected) {
    assertThat(QueryBoolean.parse(value)).isEqualTo(expected);
  }
}
