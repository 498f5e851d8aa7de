package dev.wharf.console;

import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

/** Every failure of the API as {@code {"error": "sentence"}} with a fitting status, never a stack trace. */
@RestControllerAdvice
public class ApiErrors {

    private static final Logger log = LoggerFactory.getLogger(ApiErrors.class);

    @ExceptionHandler(ConsoleException.class)
    ResponseEntity<Map<String, String>> console(ConsoleException e) {
        return ResponseEntity.status(e.status()).body(Map.of("error", e.getMessage()));
    }

    @ExceptionHandler(MissingServletRequestParameterException.class)
    ResponseEntity<Map<String, String>> missing(MissingServletRequestParameterException e) {
        return ResponseEntity.badRequest().body(Map.of("error", "The parameter \"" + e.getParameterName()
                + "\" is missing."));
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ResponseEntity<Map<String, String>> mismatch(MethodArgumentTypeMismatchException e) {
        return ResponseEntity.badRequest().body(Map.of("error", "The parameter \"" + e.getName() + "\" has the value \""
                + e.getValue() + "\", which is not a valid " + (e.getRequiredType() == null ? "value"
                : e.getRequiredType().getSimpleName().toLowerCase(java.util.Locale.ROOT)) + "."));
    }

    @ExceptionHandler(RuntimeException.class)
    ResponseEntity<Map<String, String>> unexpected(RuntimeException e) {
        log.warn("Console request failed", e);
        return ResponseEntity.internalServerError().body(Map.of("error", "The console could not do this: "
                + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage())
                + ". See the console's log."));
    }
}
