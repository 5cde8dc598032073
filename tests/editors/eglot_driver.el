;;; eglot_driver.el --- headless Emacs + eglot driver for tests/editors  -*- lexical-binding: t -*-
;;
;;   GG_OUT=out.json [GG_LOCALE=zh-CN] [GG_WATCHDOG_MS=90000] timeout 120 \
;;     emacs --batch -q -l recipe.el -l eglot_driver.el FILE.py
;;
;; The recipe (the Emacs Lisp block of docs/editors.md, unchanged) registers GradGuard
;; with eglot and starts it from `python-mode-hook' with `eglot-ensure'.  This file
;; visits FILE.py and drives the editor: waits for GradGuard's first Flymake diagnostic,
;; hovers on it (eglot's ElDoc hover function), applies the preferred quick fix with
;; `eglot-code-actions' (answering its prompt with the default, which eglot sets to the
;; action marked isPreferred), waits for the diagnostic to clear, undoes the fix
;; and waits for it to come back, shuts the server down.  What it saw goes to GG_OUT as
;; JSON; the test asserts on it.
;;
;; Batch Emacs activates no packages and has no command loop: this file activates them,
;; as startup does, then `gg-command' runs `post-command-hook' after each
;; step as the loop would (`eglot-ensure' and Flymake start from it) and `gg-wait' runs
;; the idle timers while it polls (eglot sends didChange, Flymake re-checks from them).
(require 'cl-lib)
(require 'json)
(require 'flymake)
(require 'package)
(package-activate-all)                  ; what interactive startup does (eglot's autoloads)

(defvar gg-t0 (float-time))
(defvar gg-result (list (cons 'steps nil) (cons 'ms nil)))
(defvar gg-done nil)

(defun gg-ms () (round (* 1000 (- (float-time) gg-t0))))
(defun gg-put (key value) (setf (alist-get key gg-result) value))

(defun gg-finish (status)
  (unless gg-done
    (setq gg-done t)
    (setf (alist-get 'total (alist-get 'ms gg-result)) (gg-ms))
    (gg-put 'steps (vconcat (reverse (alist-get 'steps gg-result))))
    (let ((coding-system-for-write 'utf-8))
      (with-temp-file (getenv "GG_OUT") (insert (json-encode gg-result))))
    (kill-emacs status)))

(defun gg-step (name)
  (push name (alist-get 'steps gg-result))
  (setf (alist-get (intern name) (alist-get 'ms gg-result)) (gg-ms)))

(defun gg-fail (message)
  (gg-put 'error message)
  (gg-finish 1))

(defun gg-command ()
  "What the command loop does after each command."
  (run-hooks 'post-command-hook))

(defun gg-idle ()
  "Run the idle timers, as when the user stops typing."
  (dolist (timer (copy-sequence timer-idle-list))
    (timer-event-handler timer)))

(defun gg-wait (what secs pred)
  "Poll PRED for at most SECS seconds (process output, timers and idle timers run)."
  (let ((deadline (+ (float-time) secs)))
    (while (not (funcall pred))
      (when (> (float-time) deadline)
        (error "timed out after %s s waiting for %s" secs what))
      (gg-idle)
      (accept-process-output nil 0.02))))

(defun gg-diagnostics ()
  "GradGuard's Flymake diagnostics in the current buffer, first line first."
  (let (out)
    (dolist (d (flymake-diagnostics))
      (let ((lsp (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data d)))))
        (when (equal (plist-get lsp :source) "gradguard")
          (push (list (cons 'code (plist-get lsp :code))
                      (cons 'line (line-number-at-pos (flymake-diagnostic-beg d)))
                      (cons 'col (save-excursion (goto-char (flymake-diagnostic-beg d))
                                                 (current-column)))
                      (cons 'end_line (line-number-at-pos (flymake-diagnostic-end d)))
                      (cons 'end_col (save-excursion (goto-char (flymake-diagnostic-end d))
                                                     (current-column)))
                      (cons 'message (flymake-diagnostic-text d))
                      (cons 'type (symbol-name (flymake-diagnostic-type d))))
                out))))
    (sort out (lambda (a b) (< (alist-get 'line a) (alist-get 'line b))))))

(defun gg-goto (diagnostic)
  (goto-char (point-min))
  (forward-line (1- (alist-get 'line diagnostic)))
  (move-to-column (alist-get 'col diagnostic)))

(defun gg-run (file)
  (gg-put 'editor (format "emacs %s, eglot %s" emacs-version
                          (progn (require 'lisp-mnt)
                                 (lm-version (locate-library "eglot.el")))))
  (find-file file)                      ; python-mode, its hook runs the recipe's eglot-ensure
  (gg-step "started")
  (gg-command)
  (gg-wait "eglot to connect" 30 (lambda () (and (eglot-current-server) eglot--managed-mode)))
  (gg-step "attached")
  (gg-command)
  (gg-wait "a GradGuard diagnostic" 60 #'gg-diagnostics)
  (gg-put 'diagnostics (vconcat (gg-diagnostics)))
  (gg-step "diagnostic")
  (let ((first (car (gg-diagnostics)))
        (original (buffer-string))
        (hover nil)
        (tick (buffer-chars-modified-tick)))
    ;; hover: eglot's ElDoc function, the one ElDoc calls at point
    (gg-goto first)
    (eglot-hover-eldoc-function (lambda (info &rest _) (setq hover (or info ""))))
    (gg-wait "the hover" 30 (lambda () hover))
    (gg-put 'hover (substring-no-properties hover))
    (gg-step "hover")
    ;; the preferred quick fix: M-x eglot-code-actions, RET on the default (eglot 1.9's
    ;; eglot-code-action-quickfix only lists the actions: its macro omits INTERACTIVE)
    (gg-goto first)
    (undo-boundary)
    (cl-letf (((symbol-function 'completing-read)
               (lambda (_prompt collection &optional _pred _req _init _hist default &rest _)
                 (gg-put 'actions
                         (vconcat (mapcar (lambda (item)
                                            (list (cons 'title (car item))
                                                  (cons 'kind (plist-get (cdr item) :kind))
                                                  (cons 'preferred (if (plist-get (cdr item) :isPreferred)
                                                                       t :json-false))))
                                          collection)))
                 (gg-put 'applied default)
                 default)))
      (let ((last-nonmenu-event ?\r))   ; invoked from the keyboard: a prompt, not a popup menu
        (call-interactively #'eglot-code-actions)))
    (gg-command)
    (gg-wait "the fix to change the buffer" 30
             (lambda () (/= tick (buffer-chars-modified-tick))))
    (gg-put 'text (buffer-substring-no-properties (point-min) (point-max)))
    (gg-step "fixed")
    (gg-wait "the diagnostic to clear after the fix" 60 (lambda () (null (gg-diagnostics))))
    (gg-step "cleared")
    (undo-boundary)
    (let ((last-command nil)) (undo))
    (gg-command)
    (gg-put 'undone (if (equal (buffer-string) original) t :json-false))
    (gg-wait "the diagnostic to return after undo" 60 #'gg-diagnostics)
    (gg-put 'diagnostics_after_undo (vconcat (gg-diagnostics)))
    (gg-step "returned"))
  (eglot-shutdown (eglot-current-server))
  (gg-step "stopped")
  (set-buffer-modified-p nil)
  (gg-finish 0))

;; GG_LOCALE: the docs' variant of the recipe, `:initializationOptions (:locale LOCALE)'
;; after the program (runs after the recipe's own `with-eval-after-load').
(let ((locale (getenv "GG_LOCALE")))
  (when (and locale (not (string-empty-p locale)))
    (with-eval-after-load 'eglot
      (let ((entry (assoc '(python-mode python-ts-mode) eglot-server-programs)))
        (setcdr entry (append (cdr entry) `(:initializationOptions (:locale ,locale))))))))

(let ((file (car command-line-args-left))
      (watchdog (/ (string-to-number (or (getenv "GG_WATCHDOG_MS") "90000")) 1000.0)))
  (setq command-line-args-left nil)
  (run-at-time watchdog nil
               (lambda ()
                 (gg-fail (format "watchdog: no result after %s s; last step %s"
                                  watchdog (car (alist-get 'steps gg-result))))))
  (condition-case err
      (gg-run file)
    (error (gg-fail (error-message-string err)))))
